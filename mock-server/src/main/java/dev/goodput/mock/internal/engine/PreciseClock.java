package dev.goodput.mock.internal.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * Waits until an instant on {@link System#nanoTime()} with sub-millisecond precision: parks until shortly before
 * the deadline (parking alone overshoots by 50-100 us or more on a busy machine), then spins the rest.
 */
final class PreciseClock {

    /** How long before a deadline parking stops and spinning starts; bounds the CPU spent spinning. */
    static final long SPIN_NANOS = 100_000;

    private PreciseClock() {}

    /**
     * Parks the calling thread until shortly before {@code deadlineNanos}, or until unparked.
     *
     * @return true once the deadline is within spinning distance, false if woken earlier (so the caller can look at
     *     new work and call again)
     */
    static boolean parkTowards(long deadlineNanos) {
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining <= SPIN_NANOS) {
            return true;
        }
        LockSupport.parkNanos(remaining - SPIN_NANOS);
        return deadlineNanos - System.nanoTime() <= SPIN_NANOS;
    }

    /** Spins until {@code deadlineNanos} has passed; call only once the deadline is near. */
    static void spinUntil(long deadlineNanos) {
        while (System.nanoTime() - deadlineNanos < 0) {
            Thread.onSpinWait();
        }
    }
}
