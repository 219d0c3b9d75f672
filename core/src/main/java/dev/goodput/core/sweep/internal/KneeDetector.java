package dev.goodput.core.sweep.internal;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import dev.goodput.core.sweep.SweepPoint;
import java.util.List;

/**
 * Finds the knee of a latency-versus-load curve with the Kneedle method (Satopää et al., 2011): both axes are
 * scaled to [0, 1] and the knee is the point farthest below the straight line from the first point to the last,
 * where the curve turns from flat to steep. The latency is the median TTFT. A curve whose latency does not at least double from its first point
 * to its last has no knee.
 */
public final class KneeDetector {

    /** How much the latency must rise over the curve for a knee to exist. */
    static final double MIN_RISE = 2.0;

    private KneeDetector() {}

    /** Returns the knee of the curve (rated points, ascending offered rate), or {@code null}. */
    public static SweepPoint find(List<SweepPoint> curve) {
        if (curve.size() < 3) {
            return null;
        }
        int n = curve.size();
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = curve.get(i).offeredRate();
            y[i] = latency(curve.get(i));
            if (Double.isNaN(y[i])) {
                y[i] = i == 0 ? 0 : Math.max(y[i - 1], 0) * MIN_RISE * 2;
            }
        }
        if (!(y[n - 1] >= MIN_RISE * y[0]) || x[n - 1] <= x[0]) {
            return null;
        }
        double maxY = y[0];
        for (double value : y) {
            maxY = Math.max(maxY, value);
        }
        int best = -1;
        double bestGap = 0;
        for (int i = 1; i < n - 1; i++) {
            double xs = (x[i] - x[0]) / (x[n - 1] - x[0]);
            double ys = (y[i] - y[0]) / (maxY - y[0]);
            double gap = xs - ys;
            if (gap > bestGap) {
                bestGap = gap;
                best = i;
            }
        }
        return best < 0 ? null : curve.get(best);
    }

    /**
     * Returns the latency the knee is found on: the median time to first token in nanoseconds, which holds the
     * queueing that sets in past saturation.
     */
    static double latency(SweepPoint point) {
        Summary summary = point.result().summary(Metric.TTFT);
        return summary.isEmpty() ? Double.NaN : summary.percentile(50);
    }
}
