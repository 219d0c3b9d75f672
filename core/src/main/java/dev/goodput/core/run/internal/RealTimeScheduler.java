package dev.goodput.core.run.internal;

import dev.goodput.core.NanoClock;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link TaskScheduler} on real time: one daemon thread, tasks removed from the queue when cancelled so
 * that the timeouts of finished requests do not keep them in memory.
 *
 * <p>A task due soon (an open loop's next arrival, a user's next request after its think time) is run at its time
 * to within a few microseconds, not when the kernel's timer wakes the thread: the thread wakes {@link #SPIN_AHEAD_NANOS}
 * early and spins until the task is due. On Linux a timed wait ends 50 µs (the timer slack) or more after its time;
 * on the machines of docs/performance.md, 0.1 ms at the median, which is a third of the send overhead issue 15 allows.
 * Spinning is capped by a {@link SpinBudget} so that a high arrival rate cannot turn it into a busy thread; beyond the
 * budget a task waits as before, never runs early. A task scheduled further ahead than {@link #SPIN_HORIZON_NANOS}
 * (a timeout) is scheduled as it is: it would rarely fire, and a wrapper would cost memory per request in flight.
 * Tasks due while the thread spins for another wait for it, at most {@code SPIN_AHEAD_NANOS}.
 */
public final class RealTimeScheduler implements TaskScheduler {

    /** How early the thread wakes for a task due soon, to spin until it is due: longer than most late wake-ups. */
    static final long SPIN_AHEAD_NANOS = 150_000;

    /** Tasks due further ahead than this are not spun for. */
    static final long SPIN_HORIZON_NANOS = 1_000_000_000L;

    private final NanoClock clock;
    private final ScheduledThreadPoolExecutor executor;
    /** Used by the scheduler thread only. */
    private final SpinBudget budget;
    /** Created on first use, shut down with the scheduler. */
    private ExecutorService sideWork;

    public RealTimeScheduler(NanoClock clock) {
        this.clock = clock;
        this.budget = new SpinBudget(clock.nanoTime());
        this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "goodput-scheduler");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public NanoClock clock() {
        return clock;
    }

    @Override
    public Cancellable schedule(long atNanos, Runnable task) {
        long delay = Math.max(0, atNanos - clock.nanoTime());
        if (delay <= SPIN_AHEAD_NANOS || delay > SPIN_HORIZON_NANOS) {
            ScheduledFuture<?> future = executor.schedule(task, delay, TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        }
        OnTime onTime = new OnTime(atNanos, task);
        onTime.future = executor.schedule(onTime, delay - SPIN_AHEAD_NANOS, TimeUnit.NANOSECONDS);
        return onTime;
    }

    @Override
    public synchronized Executor sideWork() {
        if (sideWork == null) {
            sideWork = Executors.newSingleThreadExecutor(runnable -> {
                Thread thread = new Thread(runnable, "goodput-looks");
                thread.setDaemon(true);
                return thread;
            });
        }
        return sideWork;
    }

    @Override
    public synchronized void close() {
        executor.shutdownNow();
        if (sideWork != null) {
            sideWork.shutdownNow();
        }
    }

    /** Waits for the thread to end after {@link #close()} (for tests). */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return executor.awaitTermination(timeout, unit);
    }

    /** A task woken early, which waits until its time (spinning while the budget lasts) and then runs. */
    private final class OnTime implements Runnable, Cancellable {
        private final long atNanos;
        private final Runnable task;
        private volatile ScheduledFuture<?> future;
        private volatile boolean cancelled;

        OnTime(long atNanos, Runnable task) {
            this.atNanos = atNanos;
            this.task = task;
        }

        @Override
        public void run() {
            long now = clock.nanoTime();
            if (now < atNanos && budget.maySpin(now)) {
                long spinStart = now;
                while (now < atNanos && !Thread.currentThread().isInterrupted()) {
                    Thread.onSpinWait();
                    now = clock.nanoTime();
                }
                budget.spent(now - spinStart);
            }
            while (now < atNanos && !Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(atNanos - now);
                now = clock.nanoTime();
            }
            // Closed (shutdownNow interrupts the thread) or cancelled while it waited: as if still in the queue.
            if (now >= atNanos && !cancelled) {
                task.run();
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
            ScheduledFuture<?> queued = future;
            if (queued != null) {
                queued.cancel(false);
            }
        }
    }
}
