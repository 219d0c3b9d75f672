package dev.goodput.core.result.internal;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.stats.ConfidenceInterval;
import dev.goodput.core.stats.internal.BatchMeans;
import dev.goodput.core.stats.internal.WindowRate;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The confidence intervals of a run's run-level values, so that an objective on goodput or throughput is judged as
 * honestly as one on a percentile: a rate from {@link WindowRate} (its events counted in bins of the window, the bins
 * taken as samples in time order), a share of requests (SLO attainment, error rate) from {@link BatchMeans} over the
 * requests in schedule order. The effective count of a rate is the requests behind it times the share of bins the
 * interval is worth, or the effective count of its requests' weights in schedule order (a goodput's 0/1 series of
 * good requests) when that is smaller. A goodput and an SLO attainment are worth no more than the latencies that
 * decide which requests are good ({@link #criteriaEffectiveCount}).
 */
final class RunValueIntervals {

    /** A run-level value's interval and how many independent requests it is worth. */
    record Estimate(ConfidenceInterval interval, double effectiveCount) {}

    /** The method text of the intervals of shares. */
    static final String SHARE_METHOD = "Wilson score on the batch-means effective count";

    private RunValueIntervals() {}

    private static ConfidenceInterval wilson(double share, double count, double confidence) {
        double z = dev.goodput.core.stats.internal.NormalQuantile.twoSided(confidence);
        double z2 = z * z;
        double center = (share + z2 / (2 * count)) / (1 + z2 / count);
        double half = z / (1 + z2 / count) * Math.sqrt(share * (1 - share) / count + z2 / (4 * count * count));
        return new ConfidenceInterval(Math.max(0, center - half), Math.min(1, center + half), confidence, SHARE_METHOD);
    }

    /**
     * Returns the interval of each run-level value the run computes.
     *
     * @param measured the measured requests judged, in schedule order
     * @param successes the successful ones among them, in schedule order
     * @param isGood whether a successful request met every request-level objective
     * @param requestCriteria the request-level objectives that {@code isGood} checks
     * @param windowStartNanos the start of the window the rates divide by
     * @param windowSeconds its length
     */
    static Map<Metric, Estimate> of(
            List<RequestRecord> measured,
            List<RequestRecord> successes,
            Predicate<RequestRecord> isGood,
            List<SloSpec> requestCriteria,
            long windowStartNanos,
            double windowSeconds,
            double confidence) {
        Map<Metric, Estimate> estimates = new EnumMap<>(Metric.class);
        // Only where the criteria bit: a run whose every success was good shows nothing the 0/1 series could hide.
        boolean someBad = successes.stream().anyMatch(record -> !isGood.test(record));
        double criteria = someBad ? criteriaEffectiveCount(successes, requestCriteria) : Double.POSITIVE_INFINITY;
        long windowEnd = windowStartNanos + Math.round(windowSeconds * 1e9);
        long[] ends = successes.stream().mapToLong(RequestRecord::endNanos).toArray();
        rate(
                estimates,
                Metric.REQUEST_THROUGHPUT,
                successes,
                ends,
                r -> 1,
                windowStartNanos,
                windowEnd,
                Double.POSITIVE_INFINITY,
                confidence);
        rate(
                estimates,
                Metric.OUTPUT_TOKEN_THROUGHPUT,
                successes,
                ends,
                RequestRecord::outputTokens,
                windowStartNanos,
                windowEnd,
                Double.POSITIVE_INFINITY,
                confidence);
        rate(
                estimates,
                Metric.INPUT_TOKEN_THROUGHPUT,
                successes,
                ends,
                r -> Math.max(0, r.inputTokens()),
                windowStartNanos,
                windowEnd,
                Double.POSITIVE_INFINITY,
                confidence);
        rate(
                estimates,
                Metric.TOTAL_TOKEN_THROUGHPUT,
                successes,
                ends,
                r -> Math.max(0, r.inputTokens()) + r.outputTokens(),
                windowStartNanos,
                windowEnd,
                Double.POSITIVE_INFINITY,
                confidence);
        rate(
                estimates,
                Metric.GOODPUT,
                successes,
                ends,
                r -> isGood.test(r) ? 1 : 0,
                windowStartNanos,
                windowEnd,
                criteria,
                confidence);
        List<RequestRecord> ended = measured.stream()
                .filter(record -> record.outcome() != Outcome.CANCELLED)
                .toList();
        share(estimates, Metric.SLO_ATTAINMENT, ended, r -> r.isSuccess() && isGood.test(r), criteria, confidence);
        share(estimates, Metric.ERROR_RATE, measured, r -> !r.isSuccess(), Double.POSITIVE_INFINITY, confidence);
        return estimates;
    }

    /**
     * Returns the fewest independent requests that the values of any request-level objective's metric are worth, in
     * schedule order; infinity without such objectives. Whether a request is good is a function of those values, and
     * a 0/1 function of a correlated series is no less correlated in what it can show: in a quiet stretch of a queue
     * near saturation nearly every request is good, the 0/1 series barely varies and its own batch means find it
     * independent, while the TTFTs that decide it still show how slowly the queue moves (docs/metrics.md, "Too short
     * for its correlation"). The smaller count only decides whether the run is too short for its correlation (the
     * not-yet rule of {@code SloEvaluator}); the interval stays the rate's or share's own: at half load, where
     * the 0/1 series is far less correlated than the TTFTs, widening it as well cost most decisions and corrected
     * none (docs/metrics.md). It applies only to a run in which some successful request was not good: where every
     * one was, the good requests are the successful ones and their rate is throughput's (a closed-loop gate whose
     * latencies stay far inside their bounds would otherwise be undecided for the latencies' own correlation).
     */
    static double criteriaEffectiveCount(List<RequestRecord> successes, List<SloSpec> requestCriteria) {
        double fewest = Double.POSITIVE_INFINITY;
        for (Metric metric :
                requestCriteria.stream().map(SloSpec::metric).distinct().toList()) {
            double[] values = successes.stream()
                    .mapToDouble(record -> ResultCalculator.requestValue(metric, record))
                    .filter(value -> !Double.isNaN(value))
                    .toArray();
            if (values.length < 2) {
                continue;
            }
            double variance = BatchMeans.sampleVariance(values);
            double effective = variance > 0 ? BatchMeans.of(values).effectiveCount(variance) : Double.NaN;
            if (!Double.isNaN(effective)) {
                fewest = Math.min(fewest, effective);
            }
        }
        return fewest;
    }

    private static void rate(
            Map<Metric, Estimate> estimates,
            Metric metric,
            List<RequestRecord> events,
            long[] eventNanos,
            ToDoubleFunction<RequestRecord> weight,
            long startNanos,
            long endNanos,
            double cap,
            double confidence) {
        double[] weights = events.stream().mapToDouble(weight).toArray();
        WindowRate rate = WindowRate.of(eventNanos, weights, startNanos, endNanos, confidence);
        if (Double.isNaN(rate.effectiveBins())) {
            estimates.put(metric, new Estimate(rate.interval(), Double.NaN));
            return;
        }
        double binned = events.size() * rate.effectiveBins() / WindowRate.BINS;
        // The smaller counts say how long the run is against its correlation (SloEvaluator's not-yet rule);
        // the interval stays the bins'.
        double effective = Math.min(Math.min(perRequestEffectiveCount(weights), binned), cap);
        ConfidenceInterval interval = rate.interval();
        estimates.put(metric, new Estimate(interval, effective));
    }

    /**
     * Returns how many independent requests the weights of a rate's requests are worth, in schedule order: the
     * requests themselves when every weight is the same (a request rate), else their batch-means effective count. A
     * rate of good requests counts a 0/1 series that moves with the queue; at bin scale its slow swings hide under
     * the arrivals' Poisson noise, so the bins alone would call a run of a few correlation times independent.
     */
    private static double perRequestEffectiveCount(double[] weights) {
        int n = weights.length;
        if (n < 2) {
            return n;
        }
        double variance = BatchMeans.sampleVariance(weights);
        if (!(variance > 0)) {
            return n;
        }
        double effective = BatchMeans.of(weights).effectiveCount(variance);
        return Double.isNaN(effective) ? n : effective;
    }

    private static void share(
            Map<Metric, Estimate> estimates,
            Metric metric,
            List<RequestRecord> requests,
            Predicate<RequestRecord> counted,
            double cap,
            double confidence) {
        double[] indicators = new double[requests.size()];
        double sum = 0;
        for (int i = 0; i < indicators.length; i++) {
            indicators[i] = counted.test(requests.get(i)) ? 1 : 0;
            sum += indicators[i];
        }
        int n = indicators.length;
        if (n == 0) {
            estimates.put(
                    metric, new Estimate(new ConfidenceInterval(Double.NaN, Double.NaN, confidence, SHARE_METHOD), 0));
            return;
        }
        double share = sum / n;
        double variance = n < 2 ? 0 : share * (1 - share) * n / (n - 1);
        // Batch means say how much correlation shrinks the count; Wilson's score interval on that count keeps a
        // share of 0 or 1 (no failure seen) from claiming certainty, as the plug-in variance would.
        double effective = variance > 0 ? BatchMeans.of(indicators).effectiveCount(variance) : n;
        if (Double.isNaN(effective)) {
            effective = n;
        }
        estimates.put(metric, new Estimate(wilson(share, effective, confidence), Math.min(effective, cap)));
    }
}
