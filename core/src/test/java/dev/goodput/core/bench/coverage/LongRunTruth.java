package dev.goodput.core.bench.coverage;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.internal.StudentT;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The long-run value of each statistic on one simulated server at one load, from one {@link TruthRun}. Its
 * precision is stated by the method of batch means: the run is cut into {@value #BLOCKS} consecutive blocks, the
 * statistic computed per block, and the 95 % Student t half-width of the block values' mean, relative to the whole
 * run's value, is reported. (Blocks of tens of thousands of requests are far longer than the correlation of even a
 * 90 %-loaded queue.)
 */
public final class LongRunTruth {

    static final int BLOCKS = 20;

    private final Map<Statistic, Double> values = new HashMap<>();
    private final Map<Statistic, Double> simulated = new HashMap<>();
    private final Map<Statistic, Double> relativeHalfWidths = new HashMap<>();
    private final java.util.Set<Statistic> exact = new java.util.HashSet<>();
    private long goodTtftBoundNanos;
    private final int requests;

    /**
     * @param run the long run
     * @param statistics the statistics to find the truth of
     * @param goodTtftPercentile the TTFT percentile whose long-run value, rounded to the millisecond, becomes
     *     goodput's per-request bound
     */
    public LongRunTruth(TruthRun run, List<Statistic> statistics, double goodTtftPercentile) {
        this.requests = run.ttftNanos().length;
        this.goodTtftBoundNanos =
                Math.round(Statistic.percentile(Metric.TTFT, goodTtftPercentile).of(run.ttftNanos()) / 1e6)
                        * 1_000_000L;
        int blockSize = requests / BLOCKS;
        for (Statistic statistic : statistics) {
            double whole = value(statistic, run, 0, requests);
            double[] blocks = new double[BLOCKS];
            for (int b = 0; b < BLOCKS; b++) {
                blocks[b] = value(statistic, run, b * blockSize, (b + 1) * blockSize);
            }
            double mean = Arrays.stream(blocks).average().orElseThrow();
            double squares = Arrays.stream(blocks)
                    .map(block -> (block - mean) * (block - mean))
                    .sum();
            double halfWidth = StudentT.twoSided(0.95, BLOCKS - 1) * Math.sqrt(squares / (BLOCKS - 1) / BLOCKS);
            values.put(statistic, whole);
            simulated.put(statistic, whole);
            relativeHalfWidths.put(statistic, halfWidth / whole);
        }
    }

    /**
     * Puts the values a closed form gives in place of the simulated ones (which stay as {@link #simulated}, a check
     * on both) and {@code goodTtftBoundNanos} in place of the simulated goodput bound; returns this truth.
     */
    public LongRunTruth withExactValues(Map<Statistic, Double> exact, long goodTtftBoundNanos) {
        values.putAll(exact);
        this.exact.addAll(exact.keySet());
        this.goodTtftBoundNanos = goodTtftBoundNanos;
        return this;
    }

    /** Returns whether the value is exact (a closed form) rather than simulated. */
    public boolean isExact(Statistic statistic) {
        return exact.contains(statistic);
    }

    /** Returns the long run's own value. */
    public double simulated(Statistic statistic) {
        return simulated.get(statistic);
    }

    /** Returns the long-run value: nanoseconds for latencies, requests per second for goodput. */
    public double value(Statistic statistic) {
        return values.get(statistic);
    }

    /** Returns the 95 % half-width of the long-run value, as a fraction of it. */
    public double relativeHalfWidth(Statistic statistic) {
        return relativeHalfWidths.get(statistic);
    }

    /** Returns the TTFT at most which a request counts as good for goodput. */
    public long goodTtftBoundNanos() {
        return goodTtftBoundNanos;
    }

    /** Returns the number of requests the truth rests on. */
    public int requests() {
        return requests;
    }

    /**
     * Returns the statistic over requests {@code from} (inclusive) to {@code to}; goodput as a gate's window counts
     * it, good requests over the time from the first one's arrival to the last token of any of them.
     */
    private double value(Statistic statistic, TruthRun run, int from, int to) {
        if (statistic.isGoodput()) {
            long good = 0;
            long end = Long.MIN_VALUE;
            for (int i = from; i < to; i++) {
                good += run.ttftNanos()[i] <= goodTtftBoundNanos ? 1 : 0;
                end = Math.max(end, run.lastTokenNanos()[i]);
            }
            return good * 1e9 / (end - run.arrivalNanos()[from]);
        }
        double[] samples = statistic.metric() == Metric.TPOT ? run.tpotNanos() : run.ttftNanos();
        return statistic.of(Arrays.copyOfRange(samples, from, to));
    }
}
