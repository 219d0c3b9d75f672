package dev.goodput.core.bench.coverage;

import dev.goodput.core.stats.internal.MD1Queue;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The exact truth of the single-slot server, an M/D/1 queue: a request's TTFT is its wait plus the 20 ms prefill,
 * and the wait's distribution is Erlang's (1909) for service time {@code S} = 40 ms and utilisation {@code rho}:
 * mean {@code rho S / (2 (1 - rho))}, quantiles by bisection on the distribution function ({@link MD1Queue}).
 * Goodput is the arrival rate times the chance of a TTFT within the good bound.
 */
public final class SingleSlotTruth {

    static final double PREFILL_NANOS = 20e6;
    static final double SERVICE_NANOS = 40e6;

    private SingleSlotTruth() {}

    /**
     * Returns {@code simulated} with the exact values in place, the good bound being the exact {@code
     * goodTtftPercentile} TTFT rounded to the millisecond.
     */
    public static LongRunTruth exact(
            LongRunTruth simulated,
            List<Statistic> statistics,
            double utilisation,
            double rate,
            double goodTtftPercentile) {
        long goodBound = Math.round(ttftQuantile(utilisation, goodTtftPercentile / 100) / 1e6) * 1_000_000L;
        return simulated.withExactValues(values(statistics, utilisation, rate, goodBound), goodBound);
    }

    /** Returns the exact value of each statistic (goodput with {@code goodTtftBoundNanos}). */
    static Map<Statistic, Double> values(
            List<Statistic> statistics, double utilisation, double rate, long goodTtftBoundNanos) {
        Map<Statistic, Double> values = new HashMap<>();
        for (Statistic statistic : statistics) {
            double value;
            if (statistic.isGoodput()) {
                value = rate * MD1Queue.waitCdf(utilisation, (goodTtftBoundNanos - PREFILL_NANOS) / SERVICE_NANOS);
            } else if (Double.isNaN(statistic.percentile())) {
                value = PREFILL_NANOS + SERVICE_NANOS * MD1Queue.meanWait(utilisation);
            } else {
                value = ttftQuantile(utilisation, statistic.percentile() / 100);
            }
            values.put(statistic, value);
        }
        return values;
    }

    /** Returns the exact TTFT quantile, in nanoseconds. */
    static double ttftQuantile(double utilisation, double probability) {
        return PREFILL_NANOS + SERVICE_NANOS * MD1Queue.waitQuantile(utilisation, probability);
    }
}
