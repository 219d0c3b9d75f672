package dev.goodput.core.run.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Measures how long the client's own threads wait before they run, as jHiccup does: a thread asks to wake every
 * millisecond and records how late it woke. Whatever delays it (garbage collection, compilation safepoints, a
 * machine whose cores are busy with the server or a build) delays the client's selector thread too, and with it
 * the timestamp of every read that arrives meanwhile. No server is needed to measure it.
 *
 * <p>A pause longer than the interval also hides the wake-ups it swallowed; they are added back as HdrHistogram's
 * {@code recordValueWithExpectedInterval} does, so the distribution is over time, not over wake-ups, and its p99 is
 * the delay that 1 % of the run's instants (and so about 1 % of token receipts) waited longer than.
 *
 * <p>Thread-safety: {@link #start} and {@link #stop} from any thread; {@link #stop} returns the histogram once
 * the measuring thread has ended.
 */
public final class PauseMeter {

    static final long INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long HIGHEST_NANOS = TimeUnit.HOURS.toNanos(1);

    private final Histogram pauses = new Histogram(1_000, HIGHEST_NANOS, 2);
    private final Thread thread = new Thread(this::measure, "goodput-pause-meter");
    private volatile boolean running = true;

    /** Starts measuring on its own daemon thread. */
    public PauseMeter start() {
        thread.setDaemon(true);
        thread.setPriority(Thread.MAX_PRIORITY);
        thread.start();
        return this;
    }

    /** Stops measuring and returns how late the thread woke, in nanoseconds, over time. */
    public Histogram stop() {
        running = false;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return pauses;
    }

    private void measure() {
        long expected = System.nanoTime() + INTERVAL_NANOS;
        while (running) {
            LockSupport.parkNanos(expected - System.nanoTime());
            long now = System.nanoTime();
            if (!running) {
                return;
            }
            record(pauses, now - expected);
            expected = now + INTERVAL_NANOS;
        }
    }

    /** Records one wake-up that came {@code lateNanos} late, with the wake-ups a long pause swallowed. */
    static void record(Histogram histogram, long lateNanos) {
        long late = Math.max(0, Math.min(lateNanos, HIGHEST_NANOS));
        histogram.recordValueWithExpectedInterval(late, INTERVAL_NANOS);
    }
}
