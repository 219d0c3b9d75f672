package dev.goodput.core.shard.internal;

import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Shard;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.internal.RunSnapshot;
import java.time.Instant;

/**
 * What a shard's output says about the shard and its run, written as {@code shard.json}.
 *
 * @param format the output format's version, {@value ShardFiles#FORMAT}
 * @param index the shard's index
 * @param count how many shards share the run
 * @param runId which run this is a share of ({@link RunIdentity}): shards of one run have the same
 * @param load the run's load as the shard saw it, for error messages
 * @param workload the run's workload as the shard saw it, for error messages
 * @param startedAt when the shard started, as ISO-8601
 * @param goodputVersion the shard's Goodput version
 * @param javaVersion the shard's Java version
 * @param javaVendor the shard's Java vendor
 * @param osName the shard's operating system
 * @param osArch the shard's processor architecture
 * @param availableProcessors the shard's processors
 * @param start how the shard agreed on its start ({@code ShardStart}'s description)
 * @param clockOffsetNanos shard 0's clock minus this shard's, as measured at the barrier (0 without one)
 * @param offsetUncertaintyNanos how far the measured offset may be off: half the best round trip (0 without a
 *     barrier)
 * @param startLagNanos how late after the agreed instant the shard started its schedule, on its own clock
 * @param ignoreEosRequests measured successful requests sent with {@code ignore_eos}, or -1 when not tracked
 * @param shorterThanAsked of those, how many came back shorter than asked, or -1 when not tracked
 * @param records how many request records the shard wrote
 */
record ShardHeader(
        int format,
        int index,
        int count,
        String runId,
        String load,
        String workload,
        String startedAt,
        String goodputVersion,
        String javaVersion,
        String javaVendor,
        String osName,
        String osArch,
        int availableProcessors,
        String start,
        long clockOffsetNanos,
        long offsetUncertaintyNanos,
        long startLagNanos,
        long ignoreEosRequests,
        long shorterThanAsked,
        long records) {

    /**
     * Describes a shard that ran {@code spec} in {@code environment}: how it started ({@code start}, the clock
     * offset and its uncertainty, its lag), and what it recorded ({@code snapshot}).
     */
    static ShardHeader of(
            RunSpec spec,
            Shard shard,
            String runId,
            RunEnvironment environment,
            String start,
            long clockOffsetNanos,
            long offsetUncertaintyNanos,
            long startLagNanos,
            RunSnapshot snapshot) {
        return new ShardHeader(
                ShardFiles.FORMAT,
                shard.index(),
                shard.count(),
                runId,
                String.valueOf(spec.load().describe()),
                String.valueOf(spec.workload().describe()),
                environment.startedAt().toString(),
                environment.goodputVersion(),
                environment.javaVersion(),
                environment.javaVendor(),
                environment.osName(),
                environment.osArch(),
                environment.availableProcessors(),
                start,
                clockOffsetNanos,
                offsetUncertaintyNanos,
                startLagNanos,
                snapshot.ignoreEosRequests(),
                snapshot.shorterThanAsked(),
                snapshot.records().size());
    }

    /** Returns the shard's environment. */
    RunEnvironment environment() {
        return new RunEnvironment(
                Instant.parse(startedAt), goodputVersion, javaVersion, javaVendor, osName, osArch, availableProcessors);
    }
}
