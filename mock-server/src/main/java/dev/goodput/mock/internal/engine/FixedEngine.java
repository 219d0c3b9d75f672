package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The engine of a {@link PerformanceModel.Mode#FIXED} model on real time: one timer thread drives a
 * {@link FixedSchedule}, waking precisely at each next due time. Emissions carry their intended times, computed
 * from arrivals and the model alone, so the thread's wake-up noise never accumulates into them. Submissions from
 * any thread go through a lock-free queue; an idle timer thread parks until one arrives.
 */
final class FixedEngine implements InferenceEngine {

    private record Submission(Generation generation, TokenSink sink) {}

    private final FixedSchedule schedule;
    private final ConcurrentLinkedQueue<Submission> submissions = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final EmissionLateness lateness = new EmissionLateness();
    private final Thread thread;
    private volatile boolean closed;

    FixedEngine(PerformanceModel model) {
        this.schedule = new FixedSchedule(model);
        this.thread = new Thread(this::run, "goodput-mock-fixed-engine");
        thread.setDaemon(true);
    }

    FixedEngine start() {
        thread.start();
        return this;
    }

    @Override
    public void submit(Generation generation, TokenSink sink) {
        if (closed) {
            sink.onFinish("abort", System.nanoTime());
            return;
        }
        pending.incrementAndGet();
        submissions.add(new Submission(generation, sink));
        LockSupport.unpark(thread);
    }

    private void run() {
        while (!closed) {
            drainSubmissions();
            long dueNanos = schedule.nextDueNanos();
            if (dueNanos == Long.MAX_VALUE) {
                LockSupport.park(this);
            } else if (PreciseClock.parkTowards(dueNanos)) {
                PreciseClock.spinUntil(dueNanos);
                lateness.record(System.nanoTime() - dueNanos);
                schedule.emitDue(System.nanoTime());
            }
        }
        drainSubmissions();
        schedule.abortAll(System.nanoTime());
    }

    private void drainSubmissions() {
        Submission submission;
        while ((submission = submissions.poll()) != null) {
            schedule.submit(submission.generation(), submission.sink());
            pending.decrementAndGet();
        }
    }

    /** Returns how late the timer thread woke against each due time. */
    EmissionLateness lateness() {
        return lateness;
    }

    @Override
    public EngineSnapshot snapshot() {
        EngineSnapshot snapshot = schedule.snapshot();
        int notYetSeen = pending.get();
        return notYetSeen == 0
                ? snapshot
                : new EngineSnapshot(
                        snapshot.running(),
                        snapshot.waiting() + notYetSeen,
                        0,
                        0,
                        0,
                        0,
                        snapshot.promptTokens(),
                        snapshot.generationTokens(),
                        snapshot.steps());
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Submission submission;
        while ((submission = submissions.poll()) != null) {
            submission.sink().onFinish("abort", System.nanoTime());
        }
    }
}
