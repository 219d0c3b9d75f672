package dev.goodput.core.stats.internal;

import java.util.SplittableRandom;

/**
 * A single-server queue with Poisson arrivals and a deterministic service time (M/D/1), whose waiting times are
 * known exactly, to test intervals on the correlated samples that queueing produces. Service time is 1.
 */
public final class MD1Queue {

    private MD1Queue() {}

    /** The true mean wait, {@code rho S / (2 (1 - rho))} with {@code S = 1}. */
    public static double meanWait(double utilisation) {
        return utilisation / (2 * (1 - utilisation));
    }

    /**
     * The true distribution function of the wait (Erlang, 1909): {@code P(W <= t) = (1 - rho)
     * sum_{k=0}^{floor(t)} (rho (k - t))^k / k! e^{-rho (k - t)}} for {@code S = 1}, arrival rate {@code rho}.
     */
    public static double waitCdf(double utilisation, double t) {
        double sum = 0;
        for (int k = 0; k <= Math.floor(t); k++) {
            double x = utilisation * (k - t);
            double term = Math.exp(-x);
            for (int j = 1; j <= k; j++) {
                term *= x / j;
            }
            sum += term;
        }
        return (1 - utilisation) * sum;
    }

    /** The true {@code probability}-quantile of the wait, by bisection on {@link #waitCdf}. */
    public static double waitQuantile(double utilisation, double probability) {
        double low = 0;
        double high = 1;
        while (waitCdf(utilisation, high) < probability) {
            high *= 2;
        }
        for (int i = 0; i < 200; i++) {
            double middle = (low + high) / 2;
            if (waitCdf(utilisation, middle) < probability) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return (low + high) / 2;
    }

    /**
     * Returns {@code count} successive waits by Lindley's recursion after {@code warmUp} discarded ones, starting
     * from an empty queue, as a run's measured requests follow its warm-up.
     */
    public static double[] waits(double utilisation, int warmUp, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double wait = 0;
        double[] waits = new double[count];
        for (int i = 0; i < warmUp + count; i++) {
            if (i >= warmUp) {
                waits[i - warmUp] = wait;
            }
            double interarrival = -Math.log(1 - random.nextDouble()) / utilisation;
            wait = Math.max(0, wait + 1 - interarrival);
        }
        return waits;
    }
}
