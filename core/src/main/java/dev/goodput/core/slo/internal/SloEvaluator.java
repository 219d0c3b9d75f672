package dev.goodput.core.slo.internal;

import dev.goodput.core.internal.Units;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.stats.ConfidenceInterval;
import dev.goodput.core.stats.internal.BatchMeans;
import dev.goodput.core.stats.internal.Confidence;
import dev.goodput.core.stats.internal.CorrelatedQuantile;
import dev.goodput.core.stats.internal.Distribution;
import dev.goodput.core.stats.internal.MeanInterval;
import dev.goodput.core.stats.internal.NormalQuantile;
import dev.goodput.core.stats.internal.OrderStatisticInterval;
import dev.goodput.core.stats.internal.RatioBatches;
import dev.goodput.core.stats.internal.SampleBlocks;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Decides whether an objective is met, from the confidence interval of its statistic rather than the point
 * estimate, so that a verdict is never an accident of sampling.
 *
 * <p>For an upper bound {@code B} ({@code ≤}): MET when the interval's upper end exists and is at most
 * {@code B}; VIOLATED when its lower end exists and exceeds {@code B}; otherwise INCONCLUSIVE, either because
 * the interval straddles the bound or because a bound needs more samples than there are. A lower bound
 * ({@code ≥}) is the mirror image. Bounds are inclusive: a value equal to {@code B} meets it. The maximum has
 * no interval and is compared directly.
 *
 * <p>When the samples come in the order they were taken ({@link Distribution#inOrder()}, as a run's per-request
 * metrics do), intervals account for correlation between successive samples: the mean's by {@link BatchMeans},
 * a percentile's by {@link CorrelatedQuantile}. Pooled histograms have no order and keep the plain intervals.
 *
 * <p>Longer than 300 lines because every kind of statistic a verdict can rest on (percentile, mean, max, rate,
 * share, trials) is judged here, beside the one judgement they share, so that no two are judged differently.
 */
public final class SloEvaluator {

    /** The confidence level used unless one is given. */
    public static final double DEFAULT_CONFIDENCE = 0.95;

    /** The reason of an inconclusive verdict on a per-request or pooled metric without samples. */
    public static final String NO_SAMPLES = "no samples";

    /** The reason of an inconclusive verdict on a run-level metric without measured requests. */
    public static final String NO_MEASURED_REQUESTS = "no measured requests";

    /**
     * The fewest effective samples from which an interval that correlation shrank is trusted to decide a verdict. The
     * effective count comes from the run itself (its batch means; for a mean also the samples' lag-1 autocorrelation,
     * {@link BatchMeans#cautiousEffectiveCount}), and a run that lasts only a few correlation times
     * underestimates that correlation: a queue near saturation that has not yet had a long excursion looks both lower
     * and steadier than it is, so the runs whose estimate errs towards the good side are also the ones with the
     * narrowest intervals. Seeded single-slot and batching gates at 80 and 90 % utilisation (docs/metrics.md, "How
     * verdict coverage is proven") said MET for a mean TTFT the truth misses by 10 % in up to 22 of 100 runs with the
     * batch means alone, and in up to 11 with at least 50 effective samples required; at 100 they stay within 5. With 8
     * batches, 100 effective samples is a batch worth about 12 independent samples. This is the minimum of a 95 %
     * interval; other confidences scale it ({@link #minCorrelatedEffective}).
     */
    public static final int MIN_CORRELATED_EFFECTIVE = 100;

    /**
     * How far correlation must shrink the count before {@link #MIN_CORRELATED_EFFECTIVE} applies: an effective
     * count below a third of the samples. Independent samples estimate their effective count near the sample count
     * (batch means of 8 to 16 batches scatter it by a factor of about 1.5), so a short run of independent
     * requests keeps its verdict. Below {@link CorrelatedQuantile#MIN_SAMPLES} samples the rule does not apply: too
     * few batches say nothing about correlation, and such a run could never reach the count it asks.
     */
    public static final double CORRELATED_SHARE = 1.0 / 3;

    private static final double Z_95 = NormalQuantile.twoSided(DEFAULT_CONFIDENCE);

    private SloEvaluator() {}

    /**
     * Returns the fewest effective samples from which a correlated interval at {@code confidence} is trusted: {@link
     * #MIN_CORRELATED_EFFECTIVE} times {@code (z / 1.96)²}, {@code z} the two-sided normal quantile of the confidence
     * (100 at 95 %, 161 at 98.7 %, 173 at 99 %), as the samples a fixed precision needs grow with {@code z²}.
     *
     * <p>Why it grows: an interval at a higher confidence reaches further into the tail of the error of the run's
     * own correlation estimate, and that tail is heavy (a quiet stretch of a queue both lowers the estimate and
     * narrows its interval). A run that lasts until decided judges each of its looks at such a confidence (98.7 %
     * for five looks); with the minimum of 95 % at every look, 1,000 seeded batching-server gates at 80 % utilisation
     * said MET for a mean TTFT the truth misses by 10 % in 62 runs, and in 30 with this one (docs/metrics.md, "How
     * verdict coverage is proven").
     *
     * @throws IllegalArgumentException if the confidence is not strictly between 0 and 1
     */
    public static double minCorrelatedEffective(double confidence) {
        double ratio = NormalQuantile.twoSided(confidence) / Z_95;
        return MIN_CORRELATED_EFFECTIVE * ratio * ratio;
    }

    /** Evaluates an objective on a per-request or pooled metric at {@link #DEFAULT_CONFIDENCE}. */
    public static SloVerdict evaluate(SloSpec slo, Distribution samples) {
        return evaluate(slo, samples, DEFAULT_CONFIDENCE);
    }

    /**
     * Evaluates an objective on a per-request or pooled metric.
     *
     * @throws IllegalArgumentException if the objective is on a run-level metric (use {@link #evaluateValue})
     *     or the confidence is not strictly between 0 and 1
     */
    public static SloVerdict evaluate(SloSpec slo, Distribution samples, double confidence) {
        Objects.requireNonNull(slo, "slo");
        Objects.requireNonNull(samples, "samples");
        Confidence.require(confidence);
        if (slo.metric().kind() == Metric.Kind.RUN) {
            throw new IllegalArgumentException(
                    "objective " + slo + " is on a run-level value; evaluate it with evaluateValue");
        }
        return switch (slo.statistic()) {
            case PERCENTILE -> percentile(slo, samples, confidence);
            case MEAN -> mean(slo, samples, confidence);
            case MAX -> max(slo, samples);
            case VALUE -> throw new IllegalArgumentException("objective " + slo + " has no samples to evaluate");
        };
    }

    /**
     * Evaluates an objective on a run-level metric, a single value without an interval.
     *
     * @param value the measured value, NaN when it could not be measured
     * @param sampleCount the number of measured requests behind it
     * @throws IllegalArgumentException if the objective is not on a run-level metric or the count is negative
     */
    public static SloVerdict evaluateValue(SloSpec slo, double value, long sampleCount) {
        Objects.requireNonNull(slo, "slo");
        if (slo.metric().kind() != Metric.Kind.RUN) {
            throw new IllegalArgumentException(
                    "objective " + slo + " is on a per-request or pooled metric; evaluate it with its samples");
        }
        if (sampleCount < 0) {
            throw new IllegalArgumentException("sample count must be at least 0, was " + sampleCount);
        }
        if (sampleCount == 0 || Double.isNaN(value)) {
            return new SloVerdict(
                    slo, Verdict.INCONCLUSIVE, Double.NaN, null, sampleCount, Double.NaN, NO_MEASURED_REQUESTS);
        }
        return new SloVerdict(slo, direct(slo, value), value, null, sampleCount, Double.NaN, null);
    }

    /**
     * Evaluates an objective on a run-level metric from its value and the value's confidence interval (a rate's
     * from batches of the measurement window, a share's from batches of requests); judged like a statistic of
     * samples, so a value close to its bound is INCONCLUSIVE rather than an accident of this run.
     *
     * @param value the measured value, NaN when it could not be measured
     * @param interval the value's interval; {@code null} for none, and the value is compared directly
     * @param sampleCount the number of measured requests behind it
     * @param effectiveCount how many independent requests the interval is worth
     */
    public static SloVerdict evaluateValue(
            SloSpec slo, double value, ConfidenceInterval interval, long sampleCount, double effectiveCount) {
        if (interval == null || isAtTheEdgeOfAShare(slo)) {
            return evaluateValue(slo, value, sampleCount);
        }
        SloVerdict plain = evaluateValue(slo, value, sampleCount);
        if (plain.verdict() == Verdict.INCONCLUSIVE) {
            return plain;
        }
        return judge(
                slo,
                value,
                interval,
                sampleCount,
                effectiveCount,
                upper -> "too few requests or time batches for a " + Confidence.percent(interval.confidence())
                        + "% interval");
    }

    /**
     * Returns whether the objective asks a share for all or nothing (an error rate of at most 0, an SLO attainment of
     * at least 1): a claim about this run's requests, not about a long-run rate, which no interval could ever prove;
     * it is judged on the run's value directly, so one failed request violates it.
     */
    private static boolean isAtTheEdgeOfAShare(SloSpec slo) {
        return (slo.metric() == Metric.ERROR_RATE
                        && slo.comparison() == SloSpec.Comparison.AT_MOST
                        && slo.threshold() <= 0)
                || (slo.metric() == Metric.SLO_ATTAINMENT
                        && slo.comparison() == SloSpec.Comparison.AT_LEAST
                        && slo.threshold() >= 1);
    }

    /**
     * Evaluates an objective on a run-level metric over several trials of the same run: the mean of the trials'
     * values with a Student t interval ({@code k - 1} degrees of freedom), judged like a mean. One trial has no
     * interval and is judged directly; trials without a value (NaN) are left out.
     *
     * @param values each trial's value
     * @param sampleCount the measured requests of all trials together
     */
    public static SloVerdict evaluateTrials(SloSpec slo, double[] values, long sampleCount, double confidence) {
        double[] defined =
                java.util.Arrays.stream(values).filter(v -> !Double.isNaN(v)).toArray();
        if (defined.length < 2) {
            return evaluateValue(slo, defined.length == 1 ? defined[0] : Double.NaN, sampleCount);
        }
        BatchMeans trials = BatchMeans.of(defined);
        ConfidenceInterval interval = new ConfidenceInterval(
                trials.meanInterval(confidence).lower(),
                trials.meanInterval(confidence).upper(),
                confidence,
                "Student t over " + defined.length + " trials");
        return judge(slo, trials.mean(), interval, sampleCount, sampleCount, upper -> "no interval over the trials");
    }

    /**
     * Returns the fewest samples with which a percentile objective can be {@link Verdict#MET}: the count from
     * which the interval's good end exists (its upper end for an upper bound {@code ≤}, its lower end for a lower
     * bound {@code ≥}). With fewer the verdict can only be VIOLATED or INCONCLUSIVE. Empty when no count gives
     * that end (the upper end of p100).
     *
     * @throws IllegalArgumentException if the objective is not on a percentile
     */
    public static OptionalLong samplesToMeet(SloSpec slo, double confidence) {
        Objects.requireNonNull(slo, "slo");
        Confidence.require(confidence);
        if (slo.statistic() != SloSpec.Statistic.PERCENTILE) {
            throw new IllegalArgumentException("objective " + slo + " is not on a percentile");
        }
        double probability = slo.percentile() / 100;
        return slo.comparison() == SloSpec.Comparison.AT_MOST
                ? OrderStatisticInterval.minimumCountForUpperBound(probability, confidence)
                : OptionalLong.of(OrderStatisticInterval.minimumCountForLowerBound(probability, confidence));
    }

    /**
     * Returns the name of the interval end that proves a percentile objective met, for example {@code "95% upper
     * bound"}.
     */
    public static String boundToMeet(SloSpec slo, double confidence) {
        return boundName(confidence, slo.comparison() == SloSpec.Comparison.AT_MOST);
    }

    private static String boundName(double confidence, boolean upper) {
        return Confidence.percent(confidence) + "% " + (upper ? "upper" : "lower") + " bound";
    }

    private static SloVerdict percentile(SloSpec slo, Distribution samples, double confidence) {
        long n = samples.count();
        double probability = slo.percentile() / 100;
        Optional<double[]> inOrder = samples.inOrder();
        Optional<SampleBlocks> blocks = samples.blocks();
        ConfidenceInterval interval;
        double effective;
        if (inOrder.isPresent() || blocks.isPresent()) {
            CorrelatedQuantile quantile = inOrder.isPresent()
                    ? CorrelatedQuantile.of(samples, inOrder.get(), slo.percentile(), confidence)
                    : CorrelatedQuantile.of(samples, blocks.get(), slo.percentile(), confidence);
            interval = quantile.interval();
            effective = quantile.effectiveCount();
        } else {
            interval = OrderStatisticInterval.of(n, probability, confidence).applyTo(samples);
            effective = n;
        }
        double measured = n == 0 ? Double.NaN : samples.percentile(slo.percentile());
        String name = "p" + Units.formatPercentile(slo.percentile());
        String count = effective < n
                ? String.format(
                        Locale.ROOT, "n=%d (effectively %.0f, as successive samples are correlated)", n, effective)
                : "n=" + n;
        return judge(slo, measured, interval, n, effective, upper -> {
            String bound = boundName(confidence, upper);
            OptionalLong needed = upper
                    ? OrderStatisticInterval.minimumCountForUpperBound(probability, confidence)
                    : OptionalLong.of(OrderStatisticInterval.minimumCountForLowerBound(probability, confidence));
            if (needed.isEmpty()) {
                return "no sample size gives a " + bound + " on " + name;
            }
            return count + " is too few for a " + bound + " on " + name + "; need at least " + needed.getAsLong()
                    + (effective < n ? " effective samples" : "");
        });
    }

    private static SloVerdict mean(SloSpec slo, Distribution samples, double confidence) {
        long n = samples.count();
        Optional<double[]> inOrder = samples.inOrder();
        Optional<SampleBlocks> blocks = samples.blocks();
        double variance = samples.standardDeviation() * samples.standardDeviation();
        ConfidenceInterval interval;
        double effective;
        if (inOrder.isPresent()) {
            BatchMeans batches = BatchMeans.of(inOrder.get());
            interval = batches.meanInterval(confidence);
            effective = batches.cautiousEffectiveCount(variance);
        } else if (blocks.isPresent()) {
            RatioBatches batches = blockMeans(blocks.get());
            interval = batches.interval(confidence);
            effective = batches.effectiveCount(variance);
        } else {
            interval = MeanInterval.of(samples, confidence);
            effective = n;
        }
        // Both ends of the mean's interval appear together, from two samples (or blocks) on.
        return judge(
                slo,
                samples.mean(),
                interval,
                n,
                Double.isNaN(effective) ? n : effective,
                upper -> "n=" + n + " is too few for a " + Confidence.percent(confidence)
                        + "% interval on the mean; need at least 2" + (blocks.isPresent() ? " requests" : ""));
    }

    private static RatioBatches blockMeans(SampleBlocks blocks) {
        double[] sums = new double[blocks.blocks()];
        double[] counts = new double[blocks.blocks()];
        for (int b = 0; b < sums.length; b++) {
            sums[b] = blocks.sum(b);
            counts[b] = blocks.count(b);
        }
        return RatioBatches.of(sums, counts);
    }

    private static SloVerdict max(SloSpec slo, Distribution samples) {
        long n = samples.count();
        if (n == 0) {
            return new SloVerdict(slo, Verdict.INCONCLUSIVE, Double.NaN, null, 0, Double.NaN, NO_SAMPLES);
        }
        double max = samples.max();
        return new SloVerdict(slo, direct(slo, max), max, null, n, Double.NaN, null);
    }

    /** Explains a missing bound; the argument says whether it is the upper one. */
    @FunctionalInterface
    private interface MissingBound {
        String reason(boolean upper);
    }

    private static SloVerdict judge(
            SloSpec slo, double measured, ConfidenceInterval interval, long n, double effective, MissingBound missing) {
        if (n == 0) {
            return new SloVerdict(slo, Verdict.INCONCLUSIVE, Double.NaN, interval, 0, 0, NO_SAMPLES);
        }
        String tooShort = null;
        if (isTooShortForItsCorrelation(n, effective, interval.confidence())) {
            // The run's own estimate of its correlation is not trusted: the interval is widened by (minimum / n_eff)^2
            // about the estimate, so that only a bound far from it is decided (a 2 s bound on a 7 ms p50), while a
            // bound within the reach of the correlation the run may not yet have shown stays undecided.
            // It keeps the estimate inside (a percentile's ends are order statistics, its estimate is interpolated)
            // and stays within what the metric can take: never below zero, never above one for a share.
            double least = minCorrelatedEffective(interval.confidence());
            double widen = Math.pow(least / effective, 2);
            double lower = measured - (measured - Math.min(interval.lower(), measured)) * widen;
            double upper = measured + (Math.max(interval.upper(), measured) - measured) * widen;
            interval = new ConfidenceInterval(
                    Math.max(0, lower),
                    slo.metric().unit() == Metric.Unit.RATIO ? Math.min(1, upper) : upper,
                    interval.confidence(),
                    interval.method());
            tooShort = String.format(
                    Locale.ROOT,
                    "n=%d is effectively %.0f independent samples, as successive samples are correlated:"
                            + " too few to trust the interval, widened %.1f times; need at least %.0f effective samples"
                            + " for a %s%% interval",
                    n,
                    effective,
                    widen,
                    Math.ceil(least),
                    Confidence.percent(interval.confidence()));
        }
        boolean atMost = slo.comparison() == SloSpec.Comparison.AT_MOST;
        // The good end proves the objective met; the bad end proves it violated.
        double good = atMost ? interval.upper() : interval.lower();
        double bad = atMost ? interval.lower() : interval.upper();
        double bound = slo.threshold();
        if (!Double.isNaN(good) && slo.comparison().holds(good, bound)) {
            return new SloVerdict(slo, Verdict.MET, measured, interval, n, effective, null);
        }
        if (!Double.isNaN(bad) && !slo.comparison().holds(bad, bound)) {
            return new SloVerdict(slo, Verdict.VIOLATED, measured, interval, n, effective, null);
        }
        String reason;
        if (tooShort != null) {
            reason = tooShort;
        } else if (!Double.isNaN(good) && !Double.isNaN(bad)) {
            reason = "the " + Confidence.percent(interval.confidence()) + "% CI straddles the bound";
        } else {
            // Name the end that is missing; when both are, the one that would confirm where the estimate leans.
            boolean reportGoodEnd = Double.isNaN(good)
                    && (!Double.isNaN(bad) || slo.comparison().holds(measured, bound));
            boolean upper = reportGoodEnd == atMost;
            reason = missing.reason(upper);
        }
        return new SloVerdict(slo, Verdict.INCONCLUSIVE, measured, interval, n, effective, reason);
    }

    /**
     * Returns whether a verdict on {@code n} samples worth {@code effective} independent ones may not be decided:
     * correlation shrank the count below a third of the samples and below {@link #minCorrelatedEffective} at the
     * interval's confidence, so the run has lasted too few correlation times for its own estimate of them to be
     * trusted. Never below {@link CorrelatedQuantile#MIN_SAMPLES} samples.
     */
    public static boolean isTooShortForItsCorrelation(long n, double effective, double confidence) {
        return n >= CorrelatedQuantile.MIN_SAMPLES
                && !Double.isNaN(effective)
                && effective < minCorrelatedEffective(confidence)
                && effective < n * CORRELATED_SHARE;
    }

    private static Verdict direct(SloSpec slo, double value) {
        return slo.comparison().holds(value, slo.threshold()) ? Verdict.MET : Verdict.VIOLATED;
    }
}
