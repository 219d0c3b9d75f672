package dev.goodput.core.testing;

import dev.goodput.core.NanoClock;
import dev.goodput.core.run.internal.TaskScheduler;
import java.util.PriorityQueue;

/**
 * A {@link TaskScheduler} on virtual time: tasks run in order of their instants (ties in scheduling order),
 * and the clock jumps to each task's instant before it runs. Nothing sleeps.
 */
public final class FakeScheduler implements TaskScheduler {

    private final PriorityQueue<Task> queue = new PriorityQueue<>();
    private long now;
    private long sequence;
    private boolean closed;

    public FakeScheduler(long startNanos) {
        this.now = startNanos;
    }

    @Override
    public NanoClock clock() {
        return () -> now;
    }

    /** Returns the current virtual time. */
    public long now() {
        return now;
    }

    @Override
    public synchronized Cancellable schedule(long atNanos, Runnable task) {
        Task entry = new Task(Math.max(atNanos, now), sequence++, task);
        queue.add(entry);
        return () -> entry.cancelled = true;
    }

    /** Runs tasks until none is left; returns the number run. Fails after {@code limit} tasks. */
    public int runUntilIdle(int limit) {
        return runUntil(Long.MAX_VALUE, limit);
    }

    /**
     * Runs the tasks due at or before {@code nanos}, and those they schedule for then; returns the number run.
     * Fails after {@code limit} tasks. The clock stays at the last task's instant.
     */
    public int runUntil(long nanos, int limit) {
        int run = 0;
        while (true) {
            Task next;
            synchronized (this) {
                next = queue.peek() != null && queue.peek().atNanos <= nanos ? queue.poll() : null;
            }
            if (next == null || closed) {
                return run;
            }
            if (next.cancelled) {
                continue;
            }
            now = next.atNanos;
            next.task.run();
            if (++run > limit) {
                throw new AssertionError("more than " + limit + " tasks: a schedule that never ends?");
            }
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    private static final class Task implements Comparable<Task> {
        final long atNanos;
        final long order;
        final Runnable task;
        volatile boolean cancelled;

        Task(long atNanos, long order, Runnable task) {
            this.atNanos = atNanos;
            this.order = order;
            this.task = task;
        }

        @Override
        public int compareTo(Task other) {
            return atNanos != other.atNanos ? Long.compare(atNanos, other.atNanos) : Long.compare(order, other.order);
        }
    }
}
