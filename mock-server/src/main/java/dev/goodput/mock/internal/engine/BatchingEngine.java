package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * The continuous-batching engine on real time: one runner thread drives a {@link BatchScheduler}, waking at each
 * step's planned end to deliver that step's tokens, then planning the next step from that planned end (not from
 * its own wake-up time), so its scheduling noise never accumulates into the model's timings. Submissions from any
 * thread go through a lock-free queue drained at step boundaries; an idle runner parks until one arrives.
 */
final class BatchingEngine extends EngineThread {

    /** A snapshot and how many submissions it accounts for; later ones are counted as waiting. */
    private record Published(EngineSnapshot snapshot, long submissionsCounted) {}

    private final PerformanceModel model;
    // Owned by the runner thread; replaced by a fresh one on reset.
    private BatchScheduler scheduler;
    private volatile LongConsumer queueTimeObserver = nanos -> {};
    private long drained;
    private volatile Published published;

    BatchingEngine(PerformanceModel model) {
        super("goodput-mock-batching-engine");
        this.model = model;
        this.scheduler = new BatchScheduler(model);
        this.published = new Published(scheduler.snapshot(), 0);
    }

    @Override
    void run() {
        long previousEndNanos = Long.MIN_VALUE;
        while (!isClosed()) {
            drainSubmissions();
            if (!scheduler.hasWork()) {
                resetIfRequested();
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
            while (!isClosed() && !waitUntil(plan.endNanos())) {
                drainSubmissions(); // they join at the next step boundary, never the step in flight
            }
            if (isClosed()) {
                break;
            }
            lateness().record(System.nanoTime() - plan.endNanos());
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

    @Override
    public void observeQueueTimes(LongConsumer observer) {
        queueTimeObserver = observer;
        scheduler.observeQueueTimes(observer);
    }

    @Override
    void restart() {
        scheduler = new BatchScheduler(model);
        scheduler.observeQueueTimes(queueTimeObserver);
        // Published before the reset returns: the GPU telemetry restarts from the fresh busy time it reads next.
        publishSnapshot();
    }

    @Override
    void accept(Generation generation, TokenSink sink) {
        scheduler.submit(generation, sink);
        drained++;
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

    /**
     * Returns the snapshot published at the last step's end, with generations submitted since then counted as
     * waiting (they join at the next step boundary).
     */
    @Override
    public EngineSnapshot snapshot() {
        Published last = published;
        return last.snapshot().withMoreWaiting(submitted() - last.submissionsCounted());
    }
}
