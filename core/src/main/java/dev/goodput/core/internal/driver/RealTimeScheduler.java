package dev.goodput.core.internal.driver;

import dev.goodput.core.NanoClock;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link TaskScheduler} on real time: one daemon thread, tasks removed from the queue when cancelled so
 * that the timeouts of finished requests do not keep them in memory.
 */
public final class RealTimeScheduler implements TaskScheduler {

    private final NanoClock clock;
    private final ScheduledThreadPoolExecutor executor;

    public RealTimeScheduler(NanoClock clock) {
        this.clock = clock;
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
        ScheduledFuture<?> future = executor.schedule(task, delay, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
