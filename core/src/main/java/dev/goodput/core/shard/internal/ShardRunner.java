package dev.goodput.core.shard.internal;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.NanoClock;
import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Shard;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.run.internal.RunEngine;
import dev.goodput.core.servermetrics.ScrapeSettings;
import dev.goodput.core.shard.ShardPlan;
import dev.goodput.core.shard.ShardStart;
import dev.goodput.core.transport.TransportProvider;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one shard: the same checks as a whole run, the start agreed with the other shards, this shard's share of the
 * schedule on a clock that reads 0 at the agreed instant, and the output written for the merge.
 *
 * <p>Why a clock that reads 0 at the agreed instant: every instant a shard records is then already on the run's
 * shared time axis, so the merge pools records and per-millisecond counts as they are, with no shifting (which would
 * round the counts' millisecond boundaries differently from a single generator's).
 */
public final class ShardRunner {

    private ShardRunner() {}

    /** Runs {@code plan}'s shard of {@code spec} and writes its output; returns this shard's own result. */
    public static RunResult run(RunSpec spec, ShardPlan plan) {
        Shard shard = plan.shard();
        refuseUnshardable(spec, shard);
        ShardFiles.refuseWritten(plan.output());
        // The whole run's sample: the merge judges the objectives on all shards' requests together.
        RunEngine.Checked checked = RunEngine.checkBeforeLoad(spec);
        TransportProvider transports = checked.transports();
        WallClock wall = WallClock.system();
        String runId = RunIdentity.of(spec);
        AgreedStart agreed = agree(plan, runId, wall);
        // Readings of this clock are nanoseconds since the agreed start, on this shard's clock.
        long zeroNanoTime = System.nanoTime() + (agreed.startEpochNanos() - wall.epochNanos());
        NanoClock aligned = () -> System.nanoTime() - zeroNanoTime;
        // One scrape of the server is enough, and shard 0's sees the load of all shards alike.
        RunSpec shardSpec = shard.index() == 0 ? spec : spec.withServerMetrics(ScrapeSettings.OFF);
        Instant startedAt = Instant.now();
        RunRecorder recorder = RunEngine.recorder(spec);
        AtomicLong lag = new AtomicLong();
        // The schedule counts from the agreed instant itself, so a late start is send lag, as for any late send.
        RunResult result = RunEngine.runOnRealTime(
                shardSpec,
                shard,
                aligned,
                transports,
                recorder,
                () -> lag.set(sleepUntil(agreed.startEpochNanos(), wall)),
                0L);
        RunSnapshot snapshot = recorder.snapshot();
        ShardFiles.write(
                plan.output(),
                ShardHeader.of(
                        spec,
                        shard,
                        runId,
                        RunEnvironment.current(startedAt),
                        plan.start().toString(),
                        agreed.clockOffsetNanos(),
                        agreed.offsetUncertaintyNanos(),
                        lag.get(),
                        snapshot),
                snapshot,
                recorder.chunkTimeline());
        return checked.noted(result);
    }

    /** Refuses a run that cannot be split into {@code shard.count()} shares before anything is sent. */
    static void refuseUnshardable(RunSpec spec, Shard shard) {
        ShardMerge.refuseServerObjectives(spec);
        int count = shard.count();
        if (spec.load().arrivals() instanceof Arrivals.ClosedLoop users && users.users() < count) {
            throw InvalidSettingException.of(
                    "users",
                    users.users(),
                    "must be at least the shard count " + count + ": each shard runs a share of the users");
        }
        if (spec.load().maxConcurrency().isPresent()
                && spec.load().maxConcurrency().getAsInt() < count) {
            throw InvalidSettingException.of(
                    "max concurrency",
                    spec.load().maxConcurrency().getAsInt(),
                    "must be at least the shard count " + count + ": each shard holds a share of the slots");
        }
        if (spec.load().limits().requests().isPresent()
                && spec.load().limits().requests().getAsLong() < count) {
            throw InvalidSettingException.of(
                    "requests",
                    spec.load().limits().requests().getAsLong(),
                    "must be at least the shard count " + count + ": a shard without requests has nothing to measure");
        }
    }

    private static AgreedStart agree(ShardPlan plan, String runId, WallClock wall) {
        Shard shard = plan.shard();
        // The gate's directory in the barrier's run id, so that two gates with the same load cannot meet.
        Path gate = plan.output().toAbsolutePath().getParent();
        String barrierRunId = (gate == null ? "" : gate.getFileName() + "/") + runId;
        try {
            if (plan.start() instanceof ShardStart.Barrier barrier && !shard.isWhole()) {
                BarrierSettings settings = BarrierSettings.defaults().withTimeout(barrier.timeout());
                return shard.index() == 0
                        ? StartBarrier.coordinate(shard.count(), barrierRunId, barrier.port(), settings, wall)
                        : StartBarrier.join(
                                shard.index(),
                                shard.count(),
                                barrierRunId,
                                InetSocketAddress.createUnresolved(barrier.host(), barrier.port()),
                                settings,
                                wall);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the other shards at the barrier", e);
        }
        long start = plan.start() instanceof ShardStart.At at
                ? at.instant().getEpochSecond() * 1_000_000_000L + at.instant().getNano()
                : wall.epochNanos();
        return new AgreedStart(start, 0, 0, start);
    }

    private static long sleepUntil(long epochNanos, WallClock wall) {
        try {
            return StartBarrier.sleepUntil(epochNanos, wall);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the agreed start", e);
        }
    }
}
