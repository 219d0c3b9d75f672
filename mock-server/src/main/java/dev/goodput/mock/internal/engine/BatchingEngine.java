package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The continuous-batching engine on real time: one runner thread drives a {@link BatchScheduler}, waking at each
 * step's planned end to deliver that step's tokens, then planning the next step from that planned end (not from
 * its own wake-up time), so its scheduling noise never accumulates into the model's timings. Submissions from any
 * thread go through a lock-free queue drained at step boundaries; an idle runner parks until one arrives.
 */
final class BatchingEngine implements InferenceEngine {

    private record Submission(Generation generation, TokenSink sink) {}

    /** A snapshot and how many submissions it accounts for; later ones are counted as waiting. */
    private record Published(EngineSnapshot snapshot, long submissionsCounted) {}

    private final BatchScheduler scheduler;
    private final ConcurrentLinkedQueue<Submission> submissions = new ConcurrentLinkedQueue<>();
    private final EmissionLateness lateness = new EmissionLateness();
    private final Thread thread;
    private final AtomicLong submitted = new AtomicLong();
    private long drained;
    private volatile boolean closed;
    private volatile Published published;

    BatchingEngine(PerformanceModel model) {
        this.scheduler = new BatchScheduler(model);
        this.published = new Published(scheduler.snapshot(), 0);
        this.thread = new Thread(this::run, "goodput-mock-batching-engine");
        thread.setDaemon(true);
    }

    BatchingEngine start() {
        thread.start();
        return this;
    }

    @Override
    public void submit(Generation generation, TokenSink sink) {
        if (closed) {
            sink.onFinish("abort", System.nanoTime());
            return;
        }
        submitted.incrementAndGet();
        submissions.add(new Submission(generation, sink));
        LockSupport.unpark(thread);
    }

    private void run() {
        long previousEndNanos = Long.MIN_VALUE;
        while (!closed) {
            drainSubmissions();
            if (!scheduler.hasWork()) {
                publishSnapshot();
                LockSupport.park(this);
                continue;
            }
            long startNanos = scheduler.nextStepStart(previousEndNanos);
            if (!waitUntil(startNanos)) {
                continue; // woken early by a submission; plan again, it may move the start
            }
            StepPlan plan = scheduler.step(startNanos);
            deliver(plan.dropped());
            while (!closed && !waitUntil(plan.endNanos())) {
                drainSubmissions(); // they join at the next step boundary, never the step in flight
            }
            if (closed) {
                break;
            }
            lateness.record(System.nanoTime() - plan.endNanos());
            // Published at the step's end just before its tokens go out: a scrape never sees counters behind what
            // a client has received, nor ahead of the model's clock.
            publishSnapshot();
            deliver(plan.emissions());
            previousEndNanos = plan.endNanos();
        }
        drainSubmissions();
        deliver(scheduler.abortAll(System.nanoTime()));
        publishSnapshot();
    }

    private void publishSnapshot() {
        published = new Published(scheduler.snapshot(), drained);
    }

    /** Waits until {@code deadlineNanos}; returns false if unparked before it (a submission or close). */
    private static boolean waitUntil(long deadlineNanos) {
        if (!PreciseClock.parkTowards(deadlineNanos)) {
            return false;
        }
        PreciseClock.spinUntil(deadlineNanos);
        return true;
    }

    private void drainSubmissions() {
        Submission submission;
        while ((submission = submissions.poll()) != null) {
            scheduler.submit(submission.generation(), submission.sink());
            drained++;
        }
    }

    private static void deliver(List<StepPlan.Emission> emissions) {
        for (StepPlan.Emission emission : emissions) {
            try {
                emission.deliver();
            } catch (RuntimeException sinkFailure) {
                // One failing sink must not stop the runner that serves every other generation.
            }
        }
    }

    /** Returns how late the runner woke against each step's planned end. */
    EmissionLateness lateness() {
        return lateness;
    }

    /**
     * Returns the snapshot published at the last step's end, with generations submitted since then counted as
     * waiting (they join at the next step boundary).
     */
    @Override
    public EngineSnapshot snapshot() {
        Published last = published;
        long unseen = submitted.get() - last.submissionsCounted();
        EngineSnapshot snapshot = last.snapshot();
        if (unseen <= 0) {
            return snapshot;
        }
        return new EngineSnapshot(
                snapshot.running(),
                snapshot.waiting() + (int) unseen,
                snapshot.kvCacheUsage(),
                snapshot.prefixCacheQueries(),
                snapshot.prefixCacheHits(),
                snapshot.preemptions(),
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
