package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ExactModesTest {

    private static final long MS = 1_000_000;

    @Test
    @DisplayName("Single-slot emits at arrival + TTFT + i * TPOT, and the next request waits for the slot")
    void singleSlotIsExact() {
        VirtualTimeRun run =
                new VirtualTimeRun(PerformanceModel.singleSlot(Duration.ofMillis(100), Duration.ofMillis(20)));
        RecordingSink first = run.submit(Generations.ignoringEos("a", 0, 40, 5));
        RecordingSink second = run.submit(Generations.ignoringEos("b", 10 * MS, 4000, 3));
        run.runToCompletion();

        assertThat(first.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(100 * MS, 120 * MS, 140 * MS, 160 * MS, 180 * MS);
        assertThat(first.finishReason).isEqualTo("length");
        assertThat(first.finishNanos).isEqualTo(180 * MS);
        assertThat(second.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(280 * MS, 300 * MS, 320 * MS);
        assertThat(second.emissions)
                .extracting(RecordingSink.Emission::firstTokenIndex)
                .containsExactly(0, 1, 2);
        assertThat(run.scheduler.snapshot().generationTokens()).isEqualTo(8);
    }

    @Test
    @DisplayName("An idle single-slot engine starts its first step at the request's arrival, not earlier")
    void idleEngineStartsAtArrival() {
        VirtualTimeRun run =
                new VirtualTimeRun(PerformanceModel.singleSlot(Duration.ofMillis(7), Duration.ofMillis(3)));
        RecordingSink early = run.submit(Generations.ignoringEos("a", 1 * MS, 10, 2));
        RecordingSink late = run.submit(Generations.ignoringEos("b", 500 * MS, 10, 2));
        run.runToCompletion();
        assertThat(early.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(8 * MS, 11 * MS);
        assertThat(late.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(507 * MS, 510 * MS);
    }

    @Test
    @DisplayName("With chunks of k tokens, a decode step emits k tokens and the last chunk the remainder")
    void multiTokenChunksInTheBatchingEngine() {
        PerformanceModel model = PerformanceModel.singleSlot(Duration.ofMillis(50), Duration.ofMillis(10))
                .withTokensPerChunk(4);
        VirtualTimeRun run = new VirtualTimeRun(model);
        RecordingSink sink = run.submit(Generations.ignoringEos("a", 0, 10, 10));
        run.runToCompletion();
        assertThat(sink.emissions).extracting(RecordingSink.Emission::count).containsExactly(1, 4, 4, 1);
        assertThat(sink.emissions)
                .extracting(RecordingSink.Emission::firstTokenIndex)
                .containsExactly(0, 1, 5, 9);
        assertThat(sink.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(50 * MS, 60 * MS, 70 * MS, 80 * MS);
        assertThat(sink.finishReason).isEqualTo("length");
    }

    @Test
    @DisplayName("A stream interval of n groups n tokens per emission at the same token rate, the first token alone")
    void streamIntervalGroupsTokensWithoutSpeedingUp() {
        PerformanceModel model = PerformanceModel.singleSlot(Duration.ofMillis(50), Duration.ofMillis(10))
                .withStreamInterval(4);
        VirtualTimeRun run = new VirtualTimeRun(model);
        RecordingSink sink = run.submit(Generations.ignoringEos("a", 0, 10, 10));
        run.runToCompletion();
        assertThat(sink.emissions).extracting(RecordingSink.Emission::count).containsExactly(1, 4, 4, 1);
        assertThat(sink.emissions)
                .extracting(RecordingSink.Emission::firstTokenIndex)
                .containsExactly(0, 1, 5, 9);
        assertThat(sink.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(50 * MS, 90 * MS, 130 * MS, 140 * MS);
        assertThat(sink.finishNanos).isEqualTo(140 * MS);
    }

    @Test
    @DisplayName("Jitter keeps every step within its configured fraction of the nominal cost, and varies")
    void jitterStaysWithinItsFraction() {
        PerformanceModel model = PerformanceModel.singleSlot(Duration.ofMillis(100), Duration.ofMillis(20))
                .withJitter(0.1)
                .withSeed(7);
        VirtualTimeRun run = new VirtualTimeRun(model);
        run.submit(Generations.ignoringEos("a", 0, 10, 200));
        run.runToCompletion();
        StepPlan prefill = run.steps.get(0);
        assertThat(prefill.durationNanos()).isBetween(90 * MS, 110 * MS);
        var decodeDurations = run.steps.subList(1, run.steps.size()).stream()
                .mapToLong(StepPlan::durationNanos)
                .summaryStatistics();
        assertThat(decodeDurations.getMin()).isBetween(18 * MS, 19 * MS);
        assertThat(decodeDurations.getMax()).isBetween(21 * MS, 22 * MS);
        assertThat(decodeDurations.getAverage()).isBetween(19.5 * MS, 20.5 * MS);
    }

    @Test
    @DisplayName("The same seed gives the same jittered steps; another seed gives others")
    void jitterIsSeeded() {
        PerformanceModel model = PerformanceModel.preset("tiny-test").withJitter(0.2);
        assertThat(durations(model.withSeed(1))).isEqualTo(durations(model.withSeed(1)));
        assertThat(durations(model.withSeed(1))).isNotEqualTo(durations(model.withSeed(2)));
    }

    private static long[] durations(PerformanceModel model) {
        VirtualTimeRun run = new VirtualTimeRun(model);
        run.submit(Generations.ignoringEos("a", 0, 100, 20));
        run.runToCompletion();
        return run.steps.stream().mapToLong(StepPlan::durationNanos).toArray();
    }
}
