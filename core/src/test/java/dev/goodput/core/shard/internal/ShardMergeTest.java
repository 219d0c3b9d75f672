package dev.goodput.core.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.load.Shard;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.run.internal.LoadDriver;
import dev.goodput.core.run.internal.RunEngine;
import dev.goodput.core.shard.MergedRun;
import dev.goodput.core.shard.ShardPlan;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.FakeScheduler;
import dev.goodput.core.testing.ScriptedTransport;
import dev.goodput.core.testing.ScriptedTransport.Response;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.workload.WorkloadMix;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge's promise, pinned on a fake clock: shards that each ran their share of a schedule, against a server
 * whose answer depends only on the request, merge into exactly the result one generator computes from the whole
 * schedule's records, every figure equal; and the merge refuses what is not one run.
 */
class ShardMergeTest {

    private static final long MS = 1_000_000;
    private static final long START = 7_000 * MS;
    private static final Instant STARTED_AT = Instant.parse("2026-11-25T05:00:00Z");

    @TempDir
    Path root;

    private static RunSpec spec(Load load) {
        WorkloadSpec chat =
                WorkloadSpec.synthetic().inputTokens(40).outputTokens(6).build();
        WorkloadSpec rag =
                WorkloadSpec.synthetic().inputTokens(900).outputTokens(4).build();
        return Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(WorkloadMix.builder()
                        .add("chat", 3, chat)
                        .add("rag", 1, rag)
                        .seed(5)
                        .build())
                .load(load)
                .objectives(
                        SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(40)),
                        SloSpec.of(Metric.TPOT)
                                .percentile(50)
                                .atMost(Duration.ofMillis(9))
                                .inClass("rag"),
                        SloSpec.of(Metric.GOODPUT).atLeast(5))
                .build();
    }

    /** A server whose answer depends on the request alone: its position sets TTFT, pace and length; some fail. */
    private static Response answer(StreamAttempt attempt) {
        long index = attempt.requestIndex();
        if (index % 17 == 9) {
            return new Response(
                    500, 2 * MS, List.of(new ScriptedTransport.Chunk(2 * MS, "{\"error\":\"busy\"}")), 3 * MS);
        }
        int tokens = attempt.spec().maxTokens();
        return ScriptedTransport.chatStream((15 + index % 23) * MS, (5 + index % 4) * MS, tokens, 10);
    }

    private record Ran(RunSnapshot snapshot, dev.goodput.core.result.internal.ChunkTimeline chunks) {}

    private static Ran run(RunSpec spec, Shard shard) {
        FakeScheduler scheduler = new FakeScheduler(START);
        RunRecorder recorder = RunEngine.recorder(spec);
        LoadDriver driver = RunEngine.driver(
                spec, shard, scheduler, new ScriptedTransport(scheduler, ShardMergeTest::answer), recorder);
        driver.start();
        scheduler.runUntilIdle(10_000_000);
        assertThat(driver.finished()).isDone();
        return new Ran(recorder.snapshot(), recorder.chunkTimeline());
    }

    private List<Path> writeShards(RunSpec spec, int count) {
        List<Path> outputs = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            Shard shard = Shard.of(index, count);
            Ran ran = run(spec, shard);
            Path directory = root.resolve(ShardPlan.directoryName(shard));
            ShardFiles.write(directory, header(spec, shard, ran.snapshot()), ran.snapshot(), ran.chunks());
            outputs.add(directory);
        }
        return outputs;
    }

    private static ShardHeader header(RunSpec spec, Shard shard, RunSnapshot snapshot) {
        return ShardHeader.of(spec, shard, RunIdentity.of(spec), environment(), "immediately", 0, 0, 0, snapshot);
    }

    private static RunEnvironment environment() {
        return new RunEnvironment(STARTED_AT, "test", "17", "vendor", "Linux", "amd64", 2);
    }

    @Test
    void three_open_loop_shards_merge_into_exactly_the_single_generators_result() {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(150).warmupRequests(6));
        RunResult single = ResultCalculator.compute(
                spec, environment(), run(spec, Shard.WHOLE).snapshot());

        MergedRun merged = ShardMerge.merge(spec, writeShards(spec, 3));

        assertThat(merged.result().records()).isEqualTo(single.records());
        assertSameFigures(merged.result(), single);
        // Not a comparison of two empty results: the run measured, failed some, and judged per class.
        assertThat(single.accounting().measured()).isEqualTo(144);
        assertThat(single.records()).anyMatch(record -> !record.isSuccess());
        assertThat(single.classes()).containsOnlyKeys("chat", "rag");
        assertThat(single.verdicts()).hasSize(3);
        assertThat(merged.shards()).extracting(s -> s.records()).containsExactly(50L, 50L, 50L);
    }

    @Test
    void the_clients_pauses_add_up_in_the_pause_meters_own_precision() {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(60));
        // The pause meter's histogram (2 significant digits), not the gaps' (3): an exact sum keeps it.
        Histogram expected = new Histogram(1_000, 3_600_000_000_000L, 2);
        List<Path> outputs = new ArrayList<>();
        for (int index = 0; index < 2; index++) {
            Shard shard = Shard.of(index, 2);
            Ran ran = run(spec, shard);
            Histogram pauses = new Histogram(1_000, 3_600_000_000_000L, 2);
            for (long pause = 1; pause <= 600; pause++) { // 1,200 together: enough to judge (1,000)
                pauses.recordValue((index + 1) * pause * 12_345);
            }
            expected.add(pauses);
            RunSnapshot base = ran.snapshot();
            RunSnapshot withPauses = new RunSnapshot(
                    base.records(),
                    base.icl(),
                    base.itl(),
                    base.ignoreEosRequests(),
                    base.shorterThanAsked(),
                    base.peakOutputChunksPerSecond(),
                    pauses,
                    base.classGaps());
            Path directory = root.resolve(ShardPlan.directoryName(shard));
            ShardFiles.write(directory, header(spec, shard, withPauses), withPauses, ran.chunks());
            outputs.add(directory);
        }

        double merged = ShardMerge.merge(spec, outputs).result().clientHealth().pauseP99Nanos();

        assertThat(merged).isEqualTo((double) expected.getValueAtPercentile(99));
    }

    @Test
    void closed_loop_shards_split_users_and_request_numbers_and_merge_exactly() {
        RunSpec spec = spec(Load.concurrency(6).requests(61).warmupRequests(5));
        Ran whole = run(spec, Shard.WHOLE);

        MergedRun merged = ShardMerge.merge(spec, writeShards(spec, 2));

        // A closed loop's request numbers follow completions, so shards do not replay the single generator's
        // order; they do send every position once, each the request that position asks for.
        assertThat(merged.result().records())
                .extracting(r -> r.index())
                .containsExactlyElementsOf(
                        whole.snapshot().records().stream().map(r -> r.index()).toList());
        assertThat(merged.result().accounting().scheduled()).isEqualTo(61);
        assertThat(merged.shards()).extracting(s -> s.records()).containsExactly(31L, 30L);
    }

    @Test
    void merging_the_same_outputs_twice_gives_the_same_result() {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(90));
        List<Path> outputs = writeShards(spec, 3);

        assertSameFigures(
                ShardMerge.merge(spec, outputs).result(),
                ShardMerge.merge(spec, ShardMerge.outputsUnder(root)).result());
    }

    @Test
    void a_missing_shard_is_named() throws IOException {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(60));
        List<Path> outputs = writeShards(spec, 3);
        deleteTree(outputs.get(1));

        assertThatThrownBy(() -> ShardMerge.merge(spec, ShardMerge.outputsUnder(root)))
                .hasMessageContaining("shards [1] of 3 have no output");
    }

    @Test
    void a_shard_twice_is_named_with_both_directories() throws IOException {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(60));
        List<Path> outputs = writeShards(spec, 2);
        Path copy = root.resolve("copy");
        copyTree(outputs.get(0), copy);

        assertThatThrownBy(() -> ShardMerge.merge(spec, List.of(outputs.get(0), outputs.get(1), copy)))
                .hasMessageContaining("shard 0 of 2 twice")
                .hasMessageContaining(copy.toString());
    }

    @Test
    void a_shard_of_another_load_is_refused_with_both_loads() {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(60));
        writeShards(spec, 2);
        RunSpec otherSeed = spec(Load.poisson(40).seed(4).requests(60));

        assertThatThrownBy(() -> ShardMerge.merge(otherSeed, ShardMerge.outputsUnder(root)))
                .hasMessageContaining("is a share of another run")
                .hasMessageContaining("seed=3")
                .hasMessageContaining("seed=4");
    }

    @Test
    void an_unfinished_shard_is_named_by_the_file_it_lacks() throws IOException {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(60));
        List<Path> outputs = writeShards(spec, 2);
        Files.delete(outputs.get(1).resolve(ShardFiles.HEADER));

        assertThatThrownBy(() -> ShardMerge.merge(spec, outputs))
                .hasMessage("shard output " + outputs.get(1) + " has no shard.json: the shard did not finish, or this"
                        + " is not a shard's output directory");
    }

    @Test
    void a_damaged_record_file_is_named() throws IOException {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(60));
        List<Path> outputs = writeShards(spec, 2);
        Path requests = outputs.get(0).resolve(ShardFiles.REQUESTS);
        byte[] whole = Files.readAllBytes(requests);
        Files.write(requests, java.util.Arrays.copyOf(whole, whole.length / 2));

        assertThatThrownBy(() -> ShardMerge.merge(spec, outputs))
                .hasMessageContaining(outputs.get(0).toString());
    }

    @Test
    void shards_of_different_counts_are_refused() {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(60));
        Path two = writeShards(spec, 2).get(0);
        Ran ran = run(spec, Shard.of(1, 3));
        Path ofThree = root.resolve("other").resolve(ShardPlan.directoryName(Shard.of(1, 3)));
        ShardFiles.write(ofThree, header(spec, Shard.of(1, 3), ran.snapshot()), ran.snapshot(), ran.chunks());

        assertThatThrownBy(() -> ShardMerge.merge(spec, List.of(two, ofThree)))
                .hasMessageContaining("shard outputs disagree on the shard count")
                .hasMessageContaining("one of 2")
                .hasMessageContaining("one of 3");
    }

    @Test
    void a_server_objective_is_refused_before_merging() {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(60));
        RunSpec withServerObjective = Goodput.newRun(spec.server())
                .workload(spec.workload())
                .load(spec.load())
                .objectives(SloSpec.of(Metric.PREEMPTIONS).atMost(0))
                .build();

        assertThatThrownBy(() -> ShardMerge.merge(withServerObjective, List.of(root)))
                .hasMessageContaining("cannot be judged in a sharded run");
    }

    @Test
    void an_empty_directory_says_what_it_expected() {
        assertThatThrownBy(() -> ShardMerge.outputsUnder(root))
                .hasMessageContaining("no shard outputs under " + root)
                .hasMessageContaining("shard-<index>-of-<count>");
    }

    @Test
    void a_directory_cannot_take_a_second_output() {
        RunSpec spec = spec(Load.poisson(40).seed(3).requests(30));
        List<Path> outputs = writeShards(spec, 1);
        Ran ran = run(spec, Shard.WHOLE);

        assertThatThrownBy(() -> ShardFiles.write(
                        outputs.get(0), header(spec, Shard.WHOLE, ran.snapshot()), ran.snapshot(), ran.chunks()))
                .hasMessageContaining("already holds a shard's output");
    }

    /** Every figure of the two results is equal, field by field and exactly (NaN equal to NaN, as Double has it). */
    private static void assertSameFigures(RunResult actual, RunResult expected) {
        assertThat(actual)
                .usingRecursiveComparison()
                .withEqualsForType(Double::equals, Double.class)
                .isEqualTo(expected);
    }

    private static void deleteTree(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path :
                    paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }
}
