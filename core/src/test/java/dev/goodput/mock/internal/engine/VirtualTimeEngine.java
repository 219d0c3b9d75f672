package dev.goodput.mock.internal.engine;

import dev.goodput.core.run.internal.TaskScheduler;
import dev.goodput.mock.PerformanceModel;

/**
 * The mock server's continuous-batching core ({@link BatchScheduler}) driven on a core {@link TaskScheduler}, so
 * that a test on virtual time serves requests with the very engine model the mock server runs on real time: each
 * step is planned at its start, its tokens go out at its planned end, and the next step starts there, as {@link
 * BatchingEngine} does without its waits.
 *
 * <p>Why in core's test tree under mock-server's package: the scheduler and its plans are package-private (they
 * are not the mock server's API), and on the test class path a class of the same package may use them. Nothing
 * here is compiled into either module's jar.
 */
public final class VirtualTimeEngine {

    private final BatchScheduler engine;
    private final TaskScheduler clock;
    private long previousEndNanos = Long.MIN_VALUE;
    private boolean stepping;
    private long steps;

    public VirtualTimeEngine(PerformanceModel model, TaskScheduler clock) {
        this.engine = new BatchScheduler(model);
        this.clock = clock;
    }

    /**
     * Submits a generation arriving now of {@code promptTokens} distinct prompt tokens that runs to exactly {@code
     * outputTokens} tokens; {@code sink} is told its tokens at their instants on the scheduler's clock.
     */
    public void submit(String requestId, int promptTokens, int outputTokens, long seed, TokenSink sink) {
        long now = clock.clock().nanoTime();
        long[] hashes = new long[promptTokens];
        for (int i = 0; i < promptTokens; i++) {
            // Distinct per request: no prefix is shared, whatever the model's prefix caching.
            hashes[i] = seed * 1_000_003L + i;
        }
        engine.submit(new Generation(requestId, now, hashes, outputTokens, outputTokens, true, seed), sink);
        if (!stepping) {
            stepping = true;
            clock.schedule(engine.nextStepStart(previousEndNanos), this::step);
        }
    }

    /** Returns the number of steps taken. */
    public long steps() {
        return steps;
    }

    private void step() {
        long start = clock.clock().nanoTime();
        StepPlan plan = engine.step(start);
        plan.dropped().forEach(StepPlan.Emission::deliver);
        if (plan.endNanos() == start && plan.emissions().isEmpty()) {
            throw new IllegalStateException("an empty step at " + start + " ns: the engine cannot make progress");
        }
        clock.schedule(plan.endNanos(), () -> endStep(plan));
    }

    private void endStep(StepPlan plan) {
        steps++;
        previousEndNanos = plan.endNanos();
        plan.emissions().forEach(StepPlan.Emission::deliver);
        if (engine.hasWork()) {
            clock.schedule(engine.nextStepStart(previousEndNanos), this::step);
        } else {
            stepping = false;
        }
    }
}
