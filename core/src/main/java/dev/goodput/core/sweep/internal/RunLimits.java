package dev.goodput.core.sweep.internal;

import dev.goodput.core.RunProgress;
import dev.goodput.core.RunWatcher;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Watches one run of a sweep and ends it when it runs past the per-run or the overall
 * limit, or when the over-saturation detector fires. Remembers why it ended the run.
 */
final class RunLimits implements RunWatcher {

    static final Duration INTERVAL = Duration.ofMillis(250);

    private final long maxRunNanos;
    private final long deadlineNanos;
    private final LongSupplier clock;
    private final OverSaturationDetector detector;
    private volatile String reason;

    /**
     * @param detector the over-saturation detector, or {@code null} when the run cannot over-saturate or
     *     detection is off
     */
    RunLimits(Duration maxRun, long deadlineNanos, LongSupplier clock, OverSaturationDetector detector) {
        this.maxRunNanos = maxRun.toNanos();
        this.deadlineNanos = deadlineNanos;
        this.clock = clock;
        this.detector = detector;
    }

    @Override
    public Duration interval() {
        return INTERVAL;
    }

    @Override
    public void onProgress(RunProgress progress) {
        if (detector != null) {
            detector.observe(progress.elapsedNanos(), progress.ended(), progress.inFlight());
        }
        if (reason == null && progress.elapsedNanos() > maxRunNanos) {
            reason = "the run reached the sweep's per-run limit of " + seconds(maxRunNanos);
        } else if (reason == null && clock.getAsLong() - deadlineNanos > 0) {
            reason = "the sweep reached its overall time limit";
        } else if (reason == null && detector != null) {
            reason = detector.verdict().orElse(null);
        }
    }

    @Override
    public Optional<String> stopReason() {
        return Optional.ofNullable(reason);
    }

    private static String seconds(long nanos) {
        return Math.round(nanos / 1e9) + " s";
    }
}
