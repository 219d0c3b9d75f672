package dev.goodput.core.stats.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The one definition of a percentile that every {@link Distribution} uses: linear interpolation between
 * closest ranks, Hyndman and Fan type 7, NumPy's default.
 *
 * <p>For {@code n} samples sorted into {@code x[0..n-1]} and a percentile {@code p} from 0 to 100, the
 * position is {@code h = (n - 1) * p / 100} and the percentile is
 * {@code x[floor(h)] + (h - floor(h)) * (x[floor(h) + 1] - x[floor(h)])}; {@code p = 0} gives the minimum,
 * {@code p = 100} the maximum and a single sample is every percentile.
 *
 * <p>Two details are deliberate. The position is computed exactly in decimal from the percentile as written
 * (99.9, not the binary double nearest to 99.9 divided by 100), so the 99.9th percentile of 0, 1, ..., 1000
 * is exactly 999 where NumPy prints 999.0000000000001; otherwise results equal NumPy's to the last bit or
 * two. And, like NumPy's {@code _lerp}, a fraction of one half or more interpolates back from the upper
 * neighbour, so a fraction near 1 lands on the upper value exactly.
 */
public final class Type7Percentile {

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private Type7Percentile() {}

    /**
     * Where a percentile falls among sorted samples.
     *
     * @param lowerIndex the 0-based index {@code floor(h)}
     * @param fraction {@code h - floor(h)}, from 0 (inclusive) to 1 (exclusive)
     * @param complement {@code 1 - fraction}, computed exactly before rounding to a double
     */
    record Position(long lowerIndex, double fraction, double complement) {}

    /** Returns the type 7 percentile (0 to 100) of a distribution, NaN when it has no samples. */
    public static double of(Distribution samples, double percentile) {
        requireValid(percentile);
        long count = samples.count();
        if (count == 0) {
            return Double.NaN;
        }
        Position position = position(count, percentile);
        double lower = samples.valueAtRank(position.lowerIndex() + 1);
        if (position.fraction() == 0) {
            // Also keeps the maximum from reading a rank past the end.
            return lower;
        }
        return interpolate(lower, samples.valueAtRank(position.lowerIndex() + 2), position);
    }

    /**
     * Checks that a percentile lies between 0 and 100.
     *
     * @throws IllegalArgumentException if it does not, or is NaN
     */
    public static void requireValid(double percentile) {
        if (!(percentile >= 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be between 0 and 100, was " + percentile);
        }
    }

    /** Returns the position of a percentile among {@code count} sorted samples; count must be positive. */
    static Position position(long count, double percentile) {
        // BigDecimal.valueOf uses the shortest decimal that round-trips, so 99.9 is exactly 99.9 here.
        BigDecimal h = BigDecimal.valueOf(count - 1)
                .multiply(BigDecimal.valueOf(percentile))
                .divide(HUNDRED);
        BigDecimal floor = h.setScale(0, RoundingMode.FLOOR);
        BigDecimal fraction = h.subtract(floor);
        return new Position(
                floor.longValueExact(),
                fraction.doubleValue(),
                BigDecimal.ONE.subtract(fraction).doubleValue());
    }

    /** Interpolates between two neighbouring samples as NumPy's {@code _lerp} does. */
    static double interpolate(double lower, double upper, Position position) {
        double difference = upper - lower;
        if (position.fraction() < 0.5) {
            return lower + difference * position.fraction();
        }
        return upper - difference * position.complement();
    }
}
