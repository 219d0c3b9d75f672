package dev.goodput.core.internal.driver;

import dev.goodput.core.Load;
import java.util.SplittableRandom;

/**
 * The offsets from the start at which an open loop's requests arrive: the first at 0, then gaps drawn from the
 * profile's distribution with its seed. The same profile always gives the same offsets.
 *
 * <p>Gaps have mean {@code 1/rate}: constant; exponential (Poisson process); or gamma with shape {@code k} =
 * burstiness and scale {@code 1/(rate k)}, sampled with Marsaglia and Tsang's method.
 */
public final class ArrivalSchedule implements ArrivalSource {

    private final Load.Arrivals arrivals;
    private final double meanGapNanos;
    private final double shape;
    private final SplittableRandom random;
    private double nextOffsetNanos;

    public ArrivalSchedule(Load profile) {
        if (profile.mode() != Load.Mode.OPEN_LOOP) {
            throw new IllegalArgumentException("an arrival schedule needs an open-loop profile");
        }
        this.arrivals = profile.arrivals();
        this.meanGapNanos = 1e9 / profile.rate();
        this.shape = profile.burstiness();
        this.random = new SplittableRandom(profile.seed());
    }

    @Override
    public long next() {
        long offset = Math.round(nextOffsetNanos);
        nextOffsetNanos += gap();
        return offset;
    }

    private double gap() {
        return switch (arrivals) {
            case CONSTANT -> meanGapNanos;
            case POISSON -> exponential() * meanGapNanos;
            case GAMMA -> gamma(shape) / shape * meanGapNanos;
            case TRACE -> throw new IllegalStateException("trace arrivals come from the workload, not a rate");
        };
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
