package dev.goodput.core.run.internal;

import dev.goodput.core.load.Arrivals;
import java.util.SplittableRandom;

/**
 * The offsets from the start at which an open loop's requests arrive: the first at 0, then gaps drawn from the
 * profile's distribution with its seed. The same profile always gives the same offsets.
 *
 * <p>Gaps have mean {@code 1/rate}: constant; exponential (Poisson process); or gamma with shape {@code k} =
 * burstiness and scale {@code 1/(rate k)}, sampled with Marsaglia and Tsang's method.
 */
public final class ArrivalSchedule implements ArrivalSource {

    private final Arrivals.AtRate arrivals;
    private final double meanGapNanos;
    private final double shape;
    private final SplittableRandom random;
    private double nextOffsetNanos;

    public ArrivalSchedule(Arrivals.AtRate arrivals) {
        this.arrivals = arrivals;
        this.meanGapNanos = 1e9 / arrivals.rate();
        this.shape = arrivals instanceof Arrivals.Gamma gamma ? gamma.burstiness() : 1.0;
        long seed = arrivals instanceof Arrivals.Poisson poisson
                ? poisson.seed()
                : arrivals instanceof Arrivals.Gamma gamma ? gamma.seed() : 0;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public long next() {
        long offset = Math.round(nextOffsetNanos);
        nextOffsetNanos += gap();
        return offset;
    }

    private double gap() {
        if (arrivals instanceof Arrivals.Poisson) {
            return exponential() * meanGapNanos;
        }
        if (arrivals instanceof Arrivals.Gamma) {
            return gamma(shape) / shape * meanGapNanos;
        }
        return meanGapNanos;
    }

    private double exponential() {
        // 1 - u lies in (0, 1], so the logarithm is finite.
        return -Math.log(1.0 - random.nextDouble());
    }

    /** Draws from Gamma(shape, 1). */
    private double gamma(double k) {
        if (k < 1) {
            // Boost: Gamma(k) = Gamma(k + 1) * U^(1/k).
            double u = 1.0 - random.nextDouble();
            return gamma(k + 1) * Math.pow(u, 1.0 / k);
        }
        double d = k - 1.0 / 3.0;
        double c = 1.0 / Math.sqrt(9.0 * d);
        while (true) {
            double x = normal();
            double v = 1.0 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = 1.0 - random.nextDouble();
            if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
                return d * v;
            }
        }
    }

    private double normal() {
        // Box-Muller; one of the pair is enough here.
        double u1 = 1.0 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
    }
}
