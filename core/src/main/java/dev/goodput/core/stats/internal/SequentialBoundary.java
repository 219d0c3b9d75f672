package dev.goodput.core.stats.internal;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The confidence level each look of a sequential run uses, so that looking at the objectives several times keeps
 * the overall error at the run's confidence: a constant boundary in the manner of Pocock (1977, "Group sequential
 * methods in the design and analysis of clinical trials", Biometrika 64(2)), used as repeated confidence intervals
 * (Jennison and Turnbull 1989, "Interim analyses: the repeated confidence interval approach", JRSS B 51(3)).
 *
 * <p>A statistic estimated after {@code n_1 < n_2 < ... < n_K} samples behaves, for large samples, like a Brownian
 * motion observed at information times {@code t_k = n_k / n_K}: the standardised estimates {@code Z_k} are normal
 * with correlation {@code sqrt(t_j / t_k)}. The boundary {@code c} is chosen so that {@code P(max_k |Z_k| > c) = 1 -
 * confidence}; every look then uses intervals at confidence {@code 2 Φ(c) - 1}, and an interval that excludes the
 * bound at any look is wrong with probability at most {@code 1 - confidence} over the whole run. For equally spaced
 * looks this gives Pocock's constants (K = 2: 2.178, K = 5: 2.413 at 95 %); for the doubling looks of a run it is
 * computed for their own information times, by Monte Carlo over {@value #PATHS} seeded paths (the boundary to within
 * about 0.01), once per plan and cached.
 */
public final class SequentialBoundary {

    /** The number of simulated paths a boundary is estimated from. */
    public static final int PATHS = 200_000;

    private static final long SEED = 0x5EC0_BA11L;
    private static final Map<String, Double> CACHE = new ConcurrentHashMap<>();

    private SequentialBoundary() {}

    /**
     * Returns the confidence level of each look.
     *
     * @param looks the sample counts at which the run looks, increasing
     * @param confidence the overall confidence, strictly between 0 and 1
     * @throws IllegalArgumentException if the looks are empty or not increasing
     */
    public static double lookConfidence(long[] looks, double confidence) {
        Confidence.require(confidence);
        if (looks.length == 0) {
            throw new IllegalArgumentException("a sequential run needs at least one look");
        }
        for (int k = 1; k < looks.length; k++) {
            if (looks[k] <= looks[k - 1]) {
                throw new IllegalArgumentException("looks must increase: " + Arrays.toString(looks));
            }
        }
        if (looks.length == 1) {
            return confidence;
        }
        String key = Arrays.toString(looks) + "@" + confidence;
        double boundary = CACHE.computeIfAbsent(key, k -> boundary(looks, confidence));
        return 2 * normalCdf(boundary) - 1;
    }

    /** Returns the boundary {@code c}: the {@code confidence}-quantile of {@code max_k |Z_k|}. */
    static double boundary(long[] looks, double confidence) {
        int k = looks.length;
        double last = looks[k - 1];
        double[] increments = new double[k];
        double previous = 0;
        for (int i = 0; i < k; i++) {
            double time = looks[i] / last;
            increments[i] = Math.sqrt(time - previous);
            previous = time;
        }
        Random random = new Random(SEED);
        double[] maxima = new double[PATHS];
        for (int path = 0; path < PATHS; path++) {
            double position = 0;
            double max = 0;
            for (int i = 0; i < k; i++) {
                position += increments[i] * random.nextGaussian();
                double z = Math.abs(position) / Math.sqrt(looks[i] / last);
                max = Math.max(max, z);
            }
            maxima[path] = max;
        }
        Arrays.sort(maxima);
        return maxima[(int) Math.ceil(confidence * PATHS) - 1];
    }

    /** The standard normal distribution function, through the error function's complement (Numerical Recipes). */
    static double normalCdf(double x) {
        double z = Math.abs(x) / Math.sqrt(2);
        double t = 1 / (1 + 0.5 * z);
        double erfc = t
                * Math.exp(
                        -z * z
                                - 1.26551223
                                + t
                                        * (1.00002368
                                                + t
                                                        * (0.37409196
                                                                + t
                                                                        * (0.09678418
                                                                                + t
                                                                                        * (-0.18628806
                                                                                                + t
                                                                                                        * (0.27886807
                                                                                                                + t
                                                                                                                        * (-1.13520398
                                                                                                                                + t
                                                                                                                                        * (1.48851587
                                                                                                                                                + t
                                                                                                                                                        * (-0.82215223
                                                                                                                                                                + t
                                                                                                                                                                        * 0.17087277)))))))));
        return x >= 0 ? 1 - erfc / 2 : erfc / 2;
    }
}
