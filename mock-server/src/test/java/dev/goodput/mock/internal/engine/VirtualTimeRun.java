package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.List;

/** Drives a {@link BatchScheduler} on virtual time, as the real-time runner would, without sleeping. */
final class VirtualTimeRun {

    final BatchScheduler scheduler;
    final List<StepPlan> steps = new ArrayList<>();
    private long previousEndNanos = Long.MIN_VALUE;

    VirtualTimeRun(PerformanceModel model) {
        this.scheduler = new BatchScheduler(model);
    }

    /** Submits a generation (it takes part from its arrival time on) and returns its recording sink. */
    RecordingSink submit(Generation generation) {
        RecordingSink sink = new RecordingSink();
        scheduler.submit(generation, sink);
        return sink;
    }

    /** Runs steps until no work is left. */
    VirtualTimeRun runToCompletion() {
        return runUntil(Long.MAX_VALUE);
    }

    /** Runs every step that starts before {@code untilNanos}. */
    VirtualTimeRun runUntil(long untilNanos) {
        while (scheduler.hasWork()) {
            long start = scheduler.nextStepStart(previousEndNanos);
            if (start >= untilNanos) {
                break;
            }
            StepPlan plan = scheduler.step(start);
            plan.dropped().forEach(StepPlan.Emission::deliver);
            plan.emissions().forEach(StepPlan.Emission::deliver);
            steps.add(plan);
            previousEndNanos = plan.endNanos();
        }
        return this;
    }

    long nowNanos() {
        return previousEndNanos;
    }
}
