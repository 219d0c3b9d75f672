package dev.goodput.core.transport.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.PreflightException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Asks a server again while it answers 503, as a server still loading its model does (llama-server's {@code
 * Loading model}), until it answers otherwise or a limit is over. The clock and the pause between tries are
 * injected, so the waiting is tested without sleeping.
 */
final class LoadingWait {

    /** The pause between two tries. */
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    /** Sleeps between two tries; production sleeps, a test moves a fake clock. */
    @FunctionalInterface
    interface Pause {
        void sleep(long nanos) throws InterruptedException;

        static Pause real() {
            return TimeUnit.NANOSECONDS::sleep;
        }
    }

    private final Duration limit;
    private final NanoClock clock;
    private final Pause pause;

    LoadingWait(Duration limit, NanoClock clock, Pause pause) {
        this.limit = limit;
        this.clock = clock;
        this.pause = pause;
    }

    /**
     * Runs {@code check} until it passes, and returns how long the server kept it waiting: zero when the first try
     * passed.
     *
     * @throws PreflightException what {@code check} threw, when it was not a 503 or the wait is over (then saying so)
     */
    Duration await(Runnable check) {
        long start = clock.nanoTime();
        boolean waited = false;
        while (true) {
            try {
                check.run();
                // A first try's own time is the check's, not a wait for the server.
                return waited ? Duration.ofNanos(clock.nanoTime() - start) : Duration.ZERO;
            } catch (PreflightException e) {
                if (!isUnavailable(e)) {
                    throw e;
                }
                long elapsed = clock.nanoTime() - start;
                if (elapsed + POLL_INTERVAL.toNanos() > limit.toNanos()) {
                    throw new PreflightException(e.request(), e.reason() + "; " + gaveUp(elapsed));
                }
                waited = true;
                try {
                    pause.sleep(POLL_INTERVAL.toNanos());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("the preflight was interrupted; no load was sent", interrupted);
                }
            }
        }
    }

    private String gaveUp(long elapsedNanos) {
        return limit.isZero()
                ? "the preflight does not wait for a loading server (preflightLoadingWait is 0)"
                : "still unavailable after the preflight waited " + seconds(elapsedNanos) + " for it"
                        + " (preflightLoadingWait " + seconds(limit.toNanos()) + ")";
    }

    /** Returns whether the server said it cannot serve yet: HTTP 503, Service Unavailable. */
    static boolean isUnavailable(PreflightException e) {
        return e.reason().startsWith("HTTP 503");
    }

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
