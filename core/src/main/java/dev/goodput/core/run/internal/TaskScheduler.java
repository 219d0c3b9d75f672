package dev.goodput.core.run.internal;

import dev.goodput.core.NanoClock;
import java.util.concurrent.Executor;

/**
 * Runs tasks at instants of a {@link NanoClock}, one at a time. The drivers do all their scheduling through
 * it, so that tests can replace real time with a virtual clock and run a whole load schedule without sleeping.
 */
public interface TaskScheduler extends AutoCloseable {

    /** Returns the clock the instants refer to. */
    NanoClock clock();

    /**
     * Runs {@code task} at or soon after {@code atNanos} (at once if that instant has passed). Tasks never run
     * concurrently with each other.
     *
     * @return a handle that removes the task if it has not run yet
     */
    Cancellable schedule(long atNanos, Runnable task);

    /**
     * Returns where work beside the schedule runs (a sequential run's looks), so that it neither delays a send nor
     * holds a reading thread: by default the scheduler itself, at once; on real time a thread of its own.
     */
    default Executor sideWork() {
        return task -> schedule(clock().nanoTime(), task);
    }

    /** Stops running tasks; tasks not run yet are dropped. */
    @Override
    void close();

    /** A scheduled task that can be withdrawn. */
    @FunctionalInterface
    interface Cancellable {
        void cancel();
    }
}
