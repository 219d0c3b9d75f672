package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine of a {@link PerformanceModel.Mode#FIXED} model on real time: one timer thread drives a
 * {@link FixedSchedule}, waking precisely at each next due time. Emissions carry their intended times, computed
 * from arrivals and the model alone, so the thread's wake-up noise never accumulates into them. Submissions from
 * any thread go through a lock-free queue; an idle timer thread parks until one arrives.
 */
final class FixedEngine extends EngineThread {

    private final PerformanceModel model;
    // Owned by the timer thread, read by snapshot() from any thread; replaced by a fresh one on reset.
    private volatile FixedSchedule schedule;
    private final AtomicLong taken = new AtomicLong();

    FixedEngine(PerformanceModel model) {
        super("goodput-mock-fixed-engine");
        this.model = model;
        this.schedule = new FixedSchedule(model);
    }

    @Override
    void run() {
        while (!isClosed()) {
            drainSubmissions();
            if (isResetRequested()) {
                schedule.dropCancelled(System.nanoTime());
            }
            long dueNanos = schedule.nextDueNanos();
            if (dueNanos == Long.MAX_VALUE) {
                resetIfRequested();
                LockSupport.park(this);
            } else if (PreciseClock.parkTowards(dueNanos)) {
                PreciseClock.spinUntil(dueNanos);
                lateness().record(System.nanoTime() - dueNanos);
                schedule.emitDue(System.nanoTime());
            }
        }
        drainSubmissions();
        schedule.abortAll(System.nanoTime());
    }

    @Override
    void accept(Generation generation, TokenSink sink) {
        schedule.submit(generation, sink);
        taken.incrementAndGet();
    }

    @Override
    void restart() {
        schedule = new FixedSchedule(model);
    }

    /** Returns the schedule's snapshot, with generations not yet taken from the queue counted as waiting. */
    @Override
    public EngineSnapshot snapshot() {
        return schedule.snapshot().withMoreWaiting(submitted() - taken.get());
    }
}
