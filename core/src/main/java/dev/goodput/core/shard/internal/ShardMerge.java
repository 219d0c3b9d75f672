package dev.goodput.core.shard.internal;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Shard;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ChunkTimeline;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.shard.MergedRun;
import dev.goodput.core.shard.ShardReport;
import dev.goodput.core.slo.SloSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * Merges the outputs of a run's shards into the result one generator would have computed from the same records:
 * the records pooled (they share one time axis), the gap histograms and client pauses added, the content events
 * per millisecond added, and the whole computed by the same {@link ResultCalculator} with the merging spec's
 * objectives. Refuses what would not be one run: shards missing or twice, of another run, or a record in the wrong
 * shard.
 */
public final class ShardMerge {

    private ShardMerge() {}

    /** Returns the shard output directories under {@code root} ({@code shard-*-of-*}), in name order. */
    public static List<Path> outputsUnder(Path root) {
        if (!Files.isDirectory(root)) {
            throw new IllegalStateException("no shard outputs: " + root + " is not a directory");
        }
        try (Stream<Path> children = Files.list(root)) {
            List<Path> outputs = children.filter(
                            child -> child.getFileName().toString().matches("shard-\\d+-of-\\d+"))
                    .filter(Files::isDirectory)
                    .sorted()
                    .toList();
            if (outputs.isEmpty()) {
                throw new IllegalStateException("no shard outputs under " + root
                        + ": expected directories named shard-<index>-of-<count>, each written by one shard");
            }
            return outputs;
        } catch (IOException e) {
            throw new UncheckedIOException("could not list " + root + ": " + e, e);
        }
    }

    /** Merges the given shard outputs, judged with {@code spec}'s objectives. */
    public static MergedRun merge(RunSpec spec, List<Path> directories) {
        refuseServerObjectives(spec);
        if (directories.isEmpty()) {
            throw new IllegalArgumentException("no shard outputs to merge");
        }
        List<ShardFiles.Output> outputs = new ArrayList<>();
        for (Path directory : directories) {
            outputs.add(ShardFiles.read(directory));
        }
        outputs.sort(Comparator.comparingInt(output -> output.header().index()));
        checkOneRun(spec, outputs);
        RunSnapshot snapshot = pool(outputs);
        ShardHeader first = outputs.get(0).header();
        Instant startedAt = outputs.stream()
                .map(output -> Instant.parse(output.header().startedAt()))
                .min(Comparator.naturalOrder())
                .orElseThrow();
        RunEnvironment shard0 = first.environment();
        RunEnvironment environment = new RunEnvironment(
                startedAt,
                shard0.goodputVersion(),
                shard0.javaVersion(),
                shard0.javaVendor(),
                shard0.osName(),
                shard0.osArch(),
                shard0.availableProcessors());
        RunResult result = ResultCalculator.compute(spec, environment, snapshot);
        return new MergedRun(result, outputs.stream().map(ShardMerge::report).toList());
    }

    /**
     * Refuses server-side objectives: the server's metrics are not part of a shard's output, so the merge cannot
     * judge them (each shard's scrape would see all shards' load anyway).
     */
    public static void refuseServerObjectives(RunSpec spec) {
        for (SloSpec objective : spec.objectives()) {
            if (objective.metric().isServerSide()) {
                throw InvalidSettingException.of(
                        "objective",
                        objective.toString(),
                        "cannot be judged in a sharded run: the merge has the shards' requests, not the server's"
                                + " metrics; judge server objectives in a single-generator gate");
            }
        }
    }

    private static void checkOneRun(RunSpec spec, List<ShardFiles.Output> outputs) {
        int count = outputs.get(0).header().count();
        Map<Integer, Path> byIndex = new TreeMap<>();
        String expected = RunIdentity.of(spec);
        for (ShardFiles.Output output : outputs) {
            ShardHeader header = output.header();
            if (header.count() != count) {
                throw new IllegalStateException("shard outputs disagree on the shard count: "
                        + outputs.get(0).directory() + " is one of " + count + ", " + output.directory() + " one of "
                        + header.count());
            }
            Path other = byIndex.put(header.index(), output.directory());
            if (other != null) {
                throw new IllegalStateException("shard " + header.index() + " of " + count + " twice: " + other
                        + " and " + output.directory() + " (a re-run shard's old output must be removed)");
            }
            if (!header.runId().equals(expected)) {
                throw new IllegalStateException("shard output " + output.directory() + " is a share of another run"
                        + " than this one: it ran\n  load " + header.load() + "\n  workload " + header.workload()
                        + "\nwhere this run is\n  load " + spec.load().describe() + "\n  workload "
                        + spec.workload().describe()
                        + "\n(same test, load scale and seed on every shard and the merge)");
            }
            Shard shard = Shard.of(header.index(), count);
            for (RequestRecord record : output.snapshot().records()) {
                if (!shard.owns(record.index())) {
                    throw new IllegalStateException("shard output " + output.directory() + " holds request "
                            + record.index() + ", which is not " + shard + "'s: the output is damaged");
                }
            }
        }
        if (byIndex.size() != count) {
            TreeSet<Integer> missing = new TreeSet<>();
            for (int index = 0; index < count; index++) {
                if (!byIndex.containsKey(index)) {
                    missing.add(index);
                }
            }
            throw new IllegalStateException("shards " + missing + " of " + count + " have no output (found "
                    + byIndex.keySet() + "): the merged run would miss their share of the load");
        }
    }

    private static RunSnapshot pool(List<ShardFiles.Output> outputs) {
        List<RequestRecord> records = new ArrayList<>();
        Histogram icl = null;
        Histogram itl = null;
        Histogram pauses = null;
        Map<String, Histogram> classIcl = new TreeMap<>();
        Map<String, Histogram> classItl = new TreeMap<>();
        ChunkTimeline chunks = new ChunkTimeline();
        long ignoreEos = 0;
        long shorter = 0;
        for (ShardFiles.Output output : outputs) {
            RunSnapshot snapshot = output.snapshot();
            records.addAll(snapshot.records());
            icl = sum(icl, snapshot.icl());
            itl = sum(itl, snapshot.itl());
            pauses = sum(pauses, snapshot.clientPauses());
            snapshot.classGaps().forEach((name, gaps) -> {
                classIcl.put(name, sum(classIcl.get(name), gaps.icl().copy()));
                classItl.put(name, sum(classItl.get(name), gaps.itl().copy()));
            });
            chunks.add(output.chunks());
            ignoreEos = RunSnapshot.sumTracked(ignoreEos, snapshot.ignoreEosRequests());
            shorter = RunSnapshot.sumTracked(shorter, snapshot.shorterThanAsked());
        }
        Map<String, RunSnapshot.Gaps> gaps = new TreeMap<>();
        classIcl.forEach((name, pooled) -> gaps.put(name, new RunSnapshot.Gaps(pooled, classItl.get(name))));
        return new RunSnapshot(records, icl, itl, ignoreEos, shorter, chunks.peakPerSecond(), pauses, gaps);
    }

    /**
     * Adds {@code next} (a copy this merge owns, or {@code null} for none) to {@code sum}, or starts the sum with it.
     * The sum keeps the configuration the shards recorded with (the gaps' and the pause meter's differ), so that
     * adding copies counts bucket by bucket, exactly.
     */
    private static Histogram sum(Histogram sum, Histogram next) {
        if (sum == null || next == null) {
            return sum == null ? next : sum;
        }
        sum.add(next);
        return sum;
    }

    private static ShardReport report(ShardFiles.Output output) {
        ShardHeader header = output.header();
        return new ShardReport(
                Shard.of(header.index(), header.count()),
                output.directory(),
                header.records(),
                Instant.parse(header.startedAt()),
                header.start(),
                Duration.ofNanos(header.clockOffsetNanos()),
                Duration.ofNanos(header.offsetUncertaintyNanos()),
                Duration.ofNanos(header.startLagNanos()));
    }
}
