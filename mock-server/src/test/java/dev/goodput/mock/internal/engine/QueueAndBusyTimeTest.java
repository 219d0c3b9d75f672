package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The scheduler's truth behind {@code vllm:request_queue_time_seconds} and the simulated GPU's busy time. */
class QueueAndBusyTimeTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    @DisplayName("a generation's queue time runs from its arrival to the start of the step that first schedules it")
    void queueTimeEndsAtTheFirstScheduling() {
        PerformanceModel tiny = PerformanceModel.preset("tiny-test"); // 512 tokens per step
        VirtualTimeRun run = new VirtualTimeRun(tiny);
        List<Long> queueTimes = new ArrayList<>();
        run.scheduler.observeQueueTimes(queueTimes::add);
        // Each prompt takes the whole step budget, so the second waits for the first step to end.
        run.submit(Generations.ignoringEos("a", 0, 512, 4));
        run.submit(Generations.ignoringEos("b", 0, 512, 4));
        run.runToCompletion();

        assertThat(queueTimes).containsExactly(0L, run.steps.get(0).endNanos());
    }

    @Test
    @DisplayName("a preempted generation's second wait does not count again, and busy time sums the steps")
    void preemptionDoesNotAddAQueueTimeAndBusyTimeSumsTheSteps() {
        PerformanceModel tiny = PerformanceModel.preset("tiny-test"); // 8 sequences, 4,096 tokens of KV
        VirtualTimeRun run = new VirtualTimeRun(tiny);
        List<Long> queueTimes = new ArrayList<>();
        run.scheduler.observeQueueTimes(queueTimes::add);
        for (int i = 0; i < 8; i++) {
            run.submit(Generations.ignoringEos("r" + i, i * SECOND / 100, 256, 400));
        }
        run.runToCompletion();

        assertThat(run.scheduler.snapshot().preemptions()).isPositive();
        assertThat(queueTimes).hasSize(8).allSatisfy(nanos -> assertThat(nanos).isNotNegative());
        long stepTime = run.steps.stream().mapToLong(StepPlan::durationNanos).sum();
        assertThat(run.scheduler.snapshot().busyNanos()).isEqualTo(stepTime);
    }
}
