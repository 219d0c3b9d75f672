package dev.goodput.core.sweep.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides that an open-loop run is over-saturated: the requests in flight (queued at the server or the client,
 * and running) keep growing. Like GuideLLM's detector it fits a least-squares slope over a sliding window and
 * fires only when the slope is significantly positive (its lower bound at about 97.5 % one-sided confidence is
 * above zero) and large: at least {@link #MIN_SHARE_OF_RATE} of the offered rate piles up instead of being
 * served. Below saturation the in-flight count fluctuates around rate times latency, and its slope is near zero.
 *
 * <p>While a run ramps up, the in-flight count climbs to that level whatever the load; the detector ignores
 * samples until twice the time the first request took to end (at least the given minimum), so the window sees
 * only the steady state or the pile-up.
 */
final class OverSaturationDetector {

    /** The fraction of offered requests per second that must pile up before the run counts as over-saturated. */
    static final double MIN_SHARE_OF_RATE = 0.1;

    private static final double T_CRITICAL = 2.2;

    private final double offeredRate;
    private final int window;
    private final long minElapsedNanos;
    private final Deque<double[]> samples = new ArrayDeque<>();
    private long firstEndNanos = -1;

    /**
     * @param offeredRate the run's offered rate in requests/s
     * @param window how many samples the slope is fitted over
     * @param minElapsedNanos the shortest ramp-up: samples before it are ignored
     */
    OverSaturationDetector(double offeredRate, int window, long minElapsedNanos) {
        this.offeredRate = offeredRate;
        this.window = window;
        this.minElapsedNanos = minElapsedNanos;
    }

    synchronized void observe(long elapsedNanos, long ended, long inFlight) {
        if (firstEndNanos < 0 && ended > 0) {
            firstEndNanos = elapsedNanos;
        }
        if (firstEndNanos < 0 || elapsedNanos < Math.max(minElapsedNanos, 2 * firstEndNanos)) {
            return;
        }
        samples.addLast(new double[] {elapsedNanos / 1e9, inFlight});
        if (samples.size() > window) {
            samples.removeFirst();
        }
    }

    /** Returns why the run is over-saturated, or empty while it is not (or not yet known). */
    synchronized Optional<String> verdict() {
        if (samples.size() < window) {
            return Optional.empty();
        }
        int n = samples.size();
        double meanX = 0;
        double meanY = 0;
        for (double[] sample : samples) {
            meanX += sample[0] / n;
            meanY += sample[1] / n;
        }
        double sxx = 0;
        double sxy = 0;
        for (double[] sample : samples) {
            sxx += (sample[0] - meanX) * (sample[0] - meanX);
            sxy += (sample[0] - meanX) * (sample[1] - meanY);
        }
        if (sxx == 0) {
            return Optional.empty();
        }
        double slope = sxy / sxx;
        double residuals = 0;
        for (double[] sample : samples) {
            double fitted = meanY + slope * (sample[0] - meanX);
            residuals += (sample[1] - fitted) * (sample[1] - fitted);
        }
        double standardError = Math.sqrt(residuals / (n - 2) / sxx);
        boolean significant = slope - T_CRITICAL * standardError > 0;
        boolean large = slope >= MIN_SHARE_OF_RATE * offeredRate;
        if (!significant || !large) {
            return Optional.empty();
        }
        double span = samples.getLast()[0] - samples.getFirst()[0];
        return Optional.of(String.format(
                Locale.ROOT,
                "over-saturated: requests in flight grew from %.0f to %.0f over the last %.1f s (+%.1f/s at an"
                        + " offered %.2f req/s); the server cannot keep up, so the run was ended early",
                samples.getFirst()[1],
                samples.getLast()[1],
                span,
                slope,
                offeredRate));
    }
}
