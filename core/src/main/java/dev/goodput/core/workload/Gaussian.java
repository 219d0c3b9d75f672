package dev.goodput.core.workload;

import java.util.SplittableRandom;

/** Standard normal draws by Box-Muller (one of the pair), from a caller's random source. */
final class Gaussian {

    private Gaussian() {}

    static double next(SplittableRandom random) {
        double u1 = 1.0 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
    }
}
