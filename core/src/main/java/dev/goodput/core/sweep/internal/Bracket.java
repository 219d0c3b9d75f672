package dev.goodput.core.sweep.internal;

import dev.goodput.core.sweep.SweepPoint;
import java.util.List;

/**
 * Where the max goodput rate lies among the rated runs so far: the lowest rate that failed and the highest rate
 * below it that passed. A run passes when it ran to the end, attained the target and kept its error rate within
 * the limit. Runs above the lowest failing rate do not count, so a lucky pass beyond a failure cannot lift the
 * answer (DistServe assumes attainment falls with load; this reads the evidence the cautious way).
 *
 * @param passing the highest passing rate below {@code failing}, or 0 when none passed
 * @param failing the lowest failing rate, or NaN when none failed
 */
record Bracket(double passing, double failing) {

    static Bracket of(List<SweepPoint> points, double target, double maxErrorRate) {
        double failing = Double.NaN;
        for (SweepPoint point : points) {
            if (point.isRated() && !passes(point, target, maxErrorRate)) {
                failing = Double.isNaN(failing) ? point.offeredRate() : Math.min(failing, point.offeredRate());
            }
        }
        double passing = 0;
        for (SweepPoint point : points) {
            if (point.isRated()
                    && passes(point, target, maxErrorRate)
                    && (Double.isNaN(failing) || point.offeredRate() < failing)) {
                passing = Math.max(passing, point.offeredRate());
            }
        }
        return new Bracket(passing, failing);
    }

    static boolean passes(SweepPoint point, double target, double maxErrorRate) {
        return point.attains(target) && !(point.errorRate() > maxErrorRate);
    }

    /** Returns whether the bracket is closed to the resolution. */
    boolean closed(double resolution) {
        return !Double.isNaN(failing) && passing > 0 && failing - passing <= resolution + 1e-9;
    }

    /**
     * Returns the next rate to try: double the passing rate while nothing failed, halve the failing rate while
     * nothing passed, else the middle.
     *
     * @param start the rate to begin with when there are no runs yet
     */
    double next(double start) {
        if (Double.isNaN(failing)) {
            return passing > 0 ? passing * 2 : start;
        }
        if (passing == 0) {
            return failing / 2;
        }
        return (passing + failing) / 2;
    }
}
