package dev.goodput.core.bench.coverage;

/**
 * The Wilson score interval of a binomial proportion at 95 %: unlike the textbook {@code p ± 1.96 sqrt(p(1-p)/n)}
 * it stays inside [0, 1] and does not collapse to a point at 0 of n, which is the case that matters here (few or no
 * wrong verdicts out of 100 runs).
 *
 * @param lower the interval's lower end
 * @param upper the interval's upper end
 */
public record WilsonInterval(double lower, double upper) {

    private static final double Z = 1.959963984540054;

    public static WilsonInterval of(long successes, long trials) {
        if (trials <= 0 || successes < 0 || successes > trials) {
            throw new IllegalArgumentException(successes + " of " + trials + " is not a proportion");
        }
        double p = (double) successes / trials;
        double z2 = Z * Z;
        double denominator = 1 + z2 / trials;
        double centre = (p + z2 / (2.0 * trials)) / denominator;
        double half = Z / denominator * Math.sqrt(p * (1 - p) / trials + z2 / (4.0 * trials * trials));
        // At 0 (or all) of n the end is 0 (or 1) exactly; the formula leaves a rounding error there.
        return new WilsonInterval(successes == 0 ? 0 : centre - half, successes == trials ? 1 : centre + half);
    }
}
