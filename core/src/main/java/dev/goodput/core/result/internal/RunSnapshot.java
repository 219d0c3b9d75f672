package dev.goodput.core.result.internal;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.stats.internal.SampleBlocks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * Everything a run measured, as a {@link RunRecorder} took it: the only input of {@link ResultCalculator}.
 * Immutable: the records are an unmodifiable list ordered by index, and the histograms are copied in and out.
 *
 * @param records one record per created request, API key redacted, ordered by index
 * @param icl pooled inter-chunk gaps of measured successful requests, in nanoseconds
 * @param itl pooled inter-token gaps of measured successful requests, in nanoseconds
 * @param ignoreEosRequests measured successful requests sent with {@code ignore_eos: true}, or
 *     {@link #NOT_TRACKED}
 * @param shorterThanAsked of those, how many produced fewer output tokens than {@code max_tokens}, or
 *     {@link #NOT_TRACKED}
 * @param peakOutputChunksPerSecond the most content events of measured successful requests in one second, the
 *     seconds counted from the earliest send of such a request (vLLM's {@code max_output_tokens_per_s}), or
 *     {@link #NOT_TRACKED}
 * @param clientPauses how late the client's own threads woke, over the run's time ({@code PauseMeter}), or
 *     {@code null} when the run was not timed on real time
 * @param classGaps the pooled gaps of each workload class's measured successful requests, by class name; empty
 *     when the workload has no classes
 * @param iclBlocks the same ICL gaps by blocks of requests in schedule order, or {@code null} when they were pooled
 *     without blocks (a sharded run's merge); intervals use them to account for correlation
 * @param itlBlocks the same for ITL
 */
public record RunSnapshot(
        List<RequestRecord> records,
        Histogram icl,
        Histogram itl,
        long ignoreEosRequests,
        long shorterThanAsked,
        long peakOutputChunksPerSecond,
        Histogram clientPauses,
        Map<String, Gaps> classGaps,
        SampleBlocks iclBlocks,
        SampleBlocks itlBlocks) {

    /**
     * Pooled inter-chunk and inter-token gaps, in nanoseconds, with the same gaps by blocks of requests ({@code
     * null} when pooled without them).
     */
    public record Gaps(Histogram icl, Histogram itl, SampleBlocks iclBlocks, SampleBlocks itlBlocks) {
        public Gaps {
            icl = Objects.requireNonNull(icl, "icl").copy();
            itl = Objects.requireNonNull(itl, "itl").copy();
        }

        /** Gaps pooled without blocks. */
        public Gaps(Histogram icl, Histogram itl) {
            this(icl, itl, null, null);
        }
    }

    /** The count of something a snapshot did not track. */
    public static final long NOT_TRACKED = -1;

    /**
     * Returns the sum of two counts, or {@link #NOT_TRACKED} when either was not tracked (merged shards, pooled
     * blocks).
     */
    public static long sumTracked(long sum, long value) {
        return sum == NOT_TRACKED || value == NOT_TRACKED ? NOT_TRACKED : sum + value;
    }

    public RunSnapshot {
        List<RequestRecord> sorted = new ArrayList<>(records);
        sorted.sort(Comparator.comparingLong(RequestRecord::index));
        records = List.copyOf(sorted);
        icl = Objects.requireNonNull(icl, "icl").copy();
        itl = Objects.requireNonNull(itl, "itl").copy();
        clientPauses = clientPauses == null ? null : clientPauses.copy();
        classGaps = classGaps == null ? Map.of() : Map.copyOf(classGaps);
    }

    /** A snapshot whose gaps were pooled without blocks. */
    public RunSnapshot(
            List<RequestRecord> records,
            Histogram icl,
            Histogram itl,
            long ignoreEosRequests,
            long shorterThanAsked,
            long peakOutputChunksPerSecond,
            Histogram clientPauses,
            Map<String, Gaps> classGaps) {
        this(
                records,
                icl,
                itl,
                ignoreEosRequests,
                shorterThanAsked,
                peakOutputChunksPerSecond,
                clientPauses,
                classGaps,
                null,
                null);
    }

    /** A snapshot of a run without workload classes. */
    public RunSnapshot(
            List<RequestRecord> records,
            Histogram icl,
            Histogram itl,
            long ignoreEosRequests,
            long shorterThanAsked,
            long peakOutputChunksPerSecond,
            Histogram clientPauses) {
        this(records, icl, itl, ignoreEosRequests, shorterThanAsked, peakOutputChunksPerSecond, clientPauses, Map.of());
    }

    /**
     * Returns a snapshot of records taken elsewhere (a subset of a run, records made by hand), with the given
     * pooled gaps, no {@code ignore_eos} counts and no peak output rate (records alone do not hold the instant of
     * every content event).
     */
    public static RunSnapshot of(List<RequestRecord> records, Histogram icl, Histogram itl) {
        return new RunSnapshot(records, icl, itl, NOT_TRACKED, NOT_TRACKED, NOT_TRACKED, null);
    }

    /** Returns a copy of the client's pauses, or {@code null} when they were not measured. */
    @Override
    public Histogram clientPauses() {
        return clientPauses == null ? null : clientPauses.copy();
    }

    /** Returns a copy of the pooled inter-chunk gaps. */
    @Override
    public Histogram icl() {
        return icl.copy();
    }

    /** Returns a copy of the pooled inter-token gaps. */
    @Override
    public Histogram itl() {
        return itl.copy();
    }
}
