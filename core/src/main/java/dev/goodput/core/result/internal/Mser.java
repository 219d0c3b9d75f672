package dev.goodput.core.result.internal;

/**
 * MSER truncation (Marginal Standard Error Rule, White 1997; MSER-5 in White, Cobb and Spratt 2000): the number
 * of leading observations to discard from an output series so that what remains has the smallest marginal
 * standard error, {@code MSER(d) = sum_{i >= d} (y_i - mean_d)^2 / (n - d)^2}. A ramp at the start inflates the
 * squared deviations more than dropping it shrinks the divisor, so the minimum falls where the ramp ends. MSER-5
 * applies the rule to means of batches of 5, which {@link LoadSeries} already are.
 *
 * <p>As the authors recommend, the truncation point is only searched for in the first half of the series; a
 * minimum at the end of that half means the series never settled (a queue that keeps growing has its smallest
 * spread at its very end).
 */
final class Mser {

    /** The value of {@link #truncation} when the minimum fell past the first half: the series did not settle. */
    static final int UNSETTLED = -1;

    private Mser() {}

    /**
     * Returns how many leading values to drop, or {@link #UNSETTLED}. The search runs over the first half, as
     * White recommends; a minimum at its very end means the statistic was still falling there (a trend, not a
     * ramp that ended), and a longer search would only find the few values at the end of the series, which a
     * drain makes look stable.
     */
    static int truncation(double[] series) {
        int n = series.length;
        if (n < 4) {
            return UNSETTLED;
        }
        // Suffix sums give every MSER(d) in one pass from the end.
        double sum = 0;
        double sumOfSquares = 0;
        double[] statistic = new double[n];
        for (int d = n - 1; d >= 0; d--) {
            sum += series[d];
            sumOfSquares += series[d] * series[d];
            int remaining = n - d;
            double squaredDeviations = Math.max(0, sumOfSquares - sum * sum / remaining);
            statistic[d] = squaredDeviations / ((double) remaining * remaining);
        }
        int limit = n / 2;
        double best = statistic[0];
        int bestD = 0;
        for (int d = 1; d <= limit; d++) {
            // Ties (a perfectly flat series) keep the earliest d: nothing to drop.
            if (statistic[d] < best - 1e-12 * Math.abs(best)) {
                best = statistic[d];
                bestD = d;
            }
        }
        // Noise moves the minimum of a trend a little before the limit, so the last tenth of the search counts too.
        return bestD < limit - Math.max(1, limit / 10) ? bestD : UNSETTLED;
    }

    /** Returns the series reversed, to find the truncation at the end with the same rule. */
    static double[] reversed(double[] series, int from, int to) {
        double[] out = new double[to - from];
        for (int i = 0; i < out.length; i++) {
            out[i] = series[to - 1 - i];
        }
        return out;
    }
}
