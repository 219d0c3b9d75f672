package dev.goodput.core.ab.internal;

import dev.goodput.core.ab.PairedChange;
import dev.goodput.core.compare.BaselineComparator;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.MetricChange;
import dev.goodput.core.stats.internal.BatchMeans;
import dev.goodput.core.stats.internal.ExactDistribution;
import dev.goodput.core.stats.internal.NormalQuantile;
import dev.goodput.core.stats.internal.OrderStatisticInterval;
import java.util.Arrays;
import java.util.Locale;

/**
 * Estimates one statistic's change from the pairs of blocks of an A/B run.
 *
 * <p>Why pairs: both blocks of a pair offered the same requests, one just after the other, so whatever the machine
 * did over those seconds (a CPU hog, a noisy neighbour, a thermal ramp) hit both arms nearly alike and cancels in
 * their ratio. Why the log ratio: a slowdown is multiplicative, and a constant relative change is the same shift of
 * the log ratio whatever each block's level. Why the median and the sign test: on a shared machine a pause now and
 * then lands in one block and not the other (a starved scheduler, a collection), and such a pair's ratio is wild;
 * the median of the pairs' log ratios ignores a few wild pairs, where their mean and a t interval would follow
 * them. The interval is the order-statistic interval for the median (the sign test inverted,
 * {@link OrderStatisticInterval}), exact for independent pairs with a continuous distribution whatever its shape.
 * Why merging neighbours: pairs run one after another, so a drift slower than a pair could still correlate
 * neighbouring pairs; while their lag-1 autocorrelation is positive beyond chance (a one-sided test at 5 %),
 * neighbours are averaged in twos, as batch means merges batches. Not the fixed limit of 0.1 that {@link BatchMeans}
 * uses on its 16 batches: with 8 to 32 independent pairs the lag-1 autocorrelation has a spread of 0.18 to 0.35, so
 * that limit merged about one run in four where nothing was correlated, and a sign test on half as many units is
 * far wider (20 A/A runs of 32 pairs: 13 UNCHANGED with it, 17 with the test; docs/ci-gates.md). The balanced
 * order (ABBA / BAAB) turns a linear drift inside a pair, and any carry-over from one arm's block to the next, into
 * spread between pairs (half the pairs gain what the other half lose) rather than a bias; the median stays centred
 * on the change when the two halves are symmetric about it.
 */
public final class PairedEstimator {

    /** The standard normal quantile of 80 % power, for the minimum detectable change. */
    static final double POWER_QUANTILE = 0.8416;

    /**
     * The one-sided 95 % standard normal quantile: {@code m} independent units have a lag-1 autocorrelation above
     * {@code 1.645 / sqrt(m)} in about one case in twenty (its standard error is {@code 1 / sqrt(m)}).
     */
    static final double CORRELATION_TEST_QUANTILE = 1.6449;

    private PairedEstimator() {}

    /**
     * Returns the change of {@code statistic} from the baseline's blocks to the candidate's.
     *
     * <p>UNCHANGED is two one-sided tests (Schuirmann 1987): a change of at least the minimum is excluded on each
     * side at the tail the look allows that side, so the interval it reads is at {@code 2 x confidence - 1} (90 %
     * for a single look at 95 %), and an UNCHANGED is wrong at most as often as one side of the interval misses.
     *
     * @param baseline the baseline's value in each pair, in pair order (NaN: the block had none)
     * @param candidate the candidate's value in the same pairs
     * @param confidence the confidence of the interval (a look's, for a run that looks several times)
     * @param judge the comparator whose minimum change the verdict weighs against
     */
    public static PairedChange estimate(
            ComparedStatistic statistic,
            double[] baseline,
            double[] candidate,
            double confidence,
            BaselineComparator judge) {
        if (baseline.length != candidate.length) {
            throw new IllegalArgumentException(
                    "pairs need as many baseline as candidate values: " + baseline.length + " and " + candidate.length);
        }
        double[] logRatios = new double[baseline.length];
        int pairs = 0;
        int bothZero = 0;
        double baseSum = 0;
        double candidateSum = 0;
        for (int i = 0; i < baseline.length; i++) {
            double base = baseline[i];
            double now = candidate[i];
            if (base == 0 && now == 0) {
                bothZero++;
            } else if (base > 0 && now > 0 && Double.isFinite(base) && Double.isFinite(now)) {
                logRatios[pairs++] = Math.log(now / base);
                baseSum += base;
                candidateSum += now;
            }
        }
        boolean lowerIsBetter = statistic.lowerIsBetter();
        if (pairs == 0 && bothZero > 0) {
            // A rate that is 0 on both sides of every pair (no request good, say) did not change.
            return new PairedChange(
                    new MetricChange(
                            statistic.name(), lowerIsBetter, 0, 0, 0, 0, 0, ChangeVerdict.UNCHANGED, "0 on both sides"),
                    0,
                    Double.NaN,
                    Double.NaN);
        }
        double baseMean = pairs == 0 ? Double.NaN : baseSum / pairs;
        double candidateMean = pairs == 0 ? Double.NaN : candidateSum / pairs;
        if (pairs < 2) {
            return new PairedChange(
                    new MetricChange(
                            statistic.name(),
                            lowerIsBetter,
                            baseMean,
                            candidateMean,
                            candidateMean / baseMean - 1,
                            Double.NaN,
                            Double.NaN,
                            ChangeVerdict.INCONCLUSIVE,
                            "fewer than 2 pairs of blocks with a value on both sides"),
                    pairs,
                    Double.NaN,
                    Double.NaN);
        }
        double[] differences = Arrays.copyOf(logRatios, pairs);
        double[] units = independentUnits(differences);
        double[] sorted = units.clone();
        Arrays.sort(sorted);
        double median = ExactDistribution.of(sorted).percentile(50);
        double change = Math.exp(median) - 1;
        double[] interval = signTestInterval(sorted, confidence);
        ChangeVerdict verdict = hasBothEnds(interval)
                ? judge.verdict(change, interval[0], interval[1], lowerIsBetter)
                : ChangeVerdict.INCONCLUSIVE;
        double shown = confidence;
        double equivalence = 2 * confidence - 1;
        if (verdict == ChangeVerdict.INCONCLUSIVE && hasBothEnds(interval)) {
            // No change: two one-sided tests (Schuirmann), each at the tail the look allows a side, read on the
            // 1 - 2 x tail interval.
            double[] twoOneSided = signTestInterval(sorted, equivalence);
            if (hasBothEnds(twoOneSided)
                    && judge.verdict(change, twoOneSided[0], twoOneSided[1], lowerIsBetter)
                            == ChangeVerdict.UNCHANGED) {
                verdict = ChangeVerdict.UNCHANGED;
                interval = twoOneSided;
                shown = equivalence;
            }
        }
        String method = String.format(
                Locale.ROOT,
                "paired blocks: median of %d %s' log ratios, sign-test interval (%s)%s",
                sorted.length,
                sorted.length == pairs ? "pairs" : "runs of neighbouring pairs",
                OrderStatisticInterval.METHOD,
                shown < confidence ? String.format(Locale.ROOT, " at %.1f %%, two one-sided tests", shown * 100) : "");
        MetricChange metricChange = new MetricChange(
                statistic.name(),
                lowerIsBetter,
                baseMean,
                candidateMean,
                change,
                interval[0],
                interval[1],
                verdict,
                hasBothEnds(interval) ? method : "too few pairs for an interval at confidence " + shown);
        // The median's standard error from a robust spread (1.4826 MAD estimates sigma; the median costs a factor
        // sqrt(pi / 2) = 1.2533 over the mean for normal data), for the detectable change at 80 % power.
        double medianError = 1.2533 * 1.4826 * medianAbsoluteDeviation(sorted, median) / Math.sqrt(sorted.length);
        double detectable = Math.exp((NormalQuantile.twoSided(confidence) + POWER_QUANTILE) * medianError) - 1;
        return new PairedChange(metricChange, pairs, standardDeviation(differences), detectable);
    }

    private static boolean hasBothEnds(double[] interval) {
        return !Double.isNaN(interval[0]) && !Double.isNaN(interval[1]);
    }

    /** Returns the sign test's interval {lower, upper} of the median of sorted log ratios, as changes; NaN ends. */
    private static double[] signTestInterval(double[] sorted, double confidence) {
        OrderStatisticInterval ranks = OrderStatisticInterval.of(sorted.length, 0.5, confidence);
        return new double[] {
            ranks.hasLowerRank() ? Math.exp(sorted[(int) ranks.lowerRank() - 1]) - 1 : Double.NaN,
            ranks.hasUpperRank() ? Math.exp(sorted[(int) ranks.upperRank() - 1]) - 1 : Double.NaN
        };
    }

    /**
     * Returns the paired differences as nearly independent units: while the lag-1 autocorrelation of the {@code m}
     * units exceeds {@code 1.645 / sqrt(m)} (positive beyond chance at 5 %) and at least {@link
     * BatchMeans#MIN_BATCHES} units would remain, neighbours are averaged in twos, as batch means merges batches.
     */
    static double[] independentUnits(double[] differences) {
        double[] units = differences;
        while (units.length / 2 >= BatchMeans.MIN_BATCHES
                && BatchMeans.lagOneAutocorrelation(units) > CORRELATION_TEST_QUANTILE / Math.sqrt(units.length)) {
            double[] merged = new double[units.length / 2];
            for (int i = 0; i < merged.length; i++) {
                merged[i] = (units[2 * i] + units[2 * i + 1]) / 2;
            }
            units = merged;
        }
        return units;
    }

    private static double medianAbsoluteDeviation(double[] sorted, double median) {
        double[] deviations = new double[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            deviations[i] = Math.abs(sorted[i] - median);
        }
        return ExactDistribution.of(deviations).percentile(50);
    }

    private static double standardDeviation(double[] values) {
        double mean = Arrays.stream(values).average().orElse(Double.NaN);
        double squares = 0;
        for (double value : values) {
            squares += (value - mean) * (value - mean);
        }
        return Math.sqrt(squares / (values.length - 1));
    }
}
