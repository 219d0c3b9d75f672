package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The fixed-mode schedule on virtual time: exact to the nanosecond. */
class FixedScheduleTest {

    private static final long MS = 1_000_000;

    private static void runToCompletion(FixedSchedule schedule) {
        long due;
        while ((due = schedule.nextDueNanos()) != Long.MAX_VALUE) {
            schedule.emitDue(due);
        }
    }

    private static RecordingSink submit(FixedSchedule schedule, Generation generation) {
        RecordingSink sink = new RecordingSink();
        schedule.submit(generation, sink);
        return sink;
    }

    @Test
    @DisplayName("Every generation emits at arrival + TTFT + i * TPOT however many run at once")
    void emissionsAreExactAndIndependentOfLoad() {
        FixedSchedule schedule =
                new FixedSchedule(PerformanceModel.fixed(Duration.ofMillis(50), Duration.ofMillis(10)));
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            sinks.add(submit(schedule, Generations.ignoringEos("r" + i, i * 3 * MS, 16, 20)));
        }
        assertThat(schedule.snapshot().running()).isEqualTo(1_000);
        runToCompletion(schedule);
        for (int i = 0; i < sinks.size(); i++) {
            RecordingSink sink = sinks.get(i);
            assertThat(sink.emissions).hasSize(20);
            for (int token = 0; token < 20; token++) {
                assertThat(sink.emissions.get(token).intendedNanos()).isEqualTo(i * 3 * MS + 50 * MS + token * 10 * MS);
            }
            assertThat(sink.finishReason).isEqualTo("length");
            assertThat(sink.finishNanos).isEqualTo(i * 3 * MS + 240 * MS);
        }
        assertThat(schedule.snapshot().generationTokens()).isEqualTo(20_000);
        assertThat(schedule.snapshot().running()).isZero();
    }

    @Test
    @DisplayName("With chunks of k tokens, the first token comes alone, then each TPOT emits k tokens")
    void multiTokenChunks() {
        FixedSchedule schedule = new FixedSchedule(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(2))
                .withTokensPerChunk(3));
        RecordingSink sink = submit(schedule, Generations.ignoringEos("a", 0, 8, 10));
        runToCompletion(schedule);
        assertThat(sink.emissions).extracting(RecordingSink.Emission::count).containsExactly(1, 3, 3, 3);
        assertThat(sink.emissions)
                .extracting(RecordingSink.Emission::firstTokenIndex)
                .containsExactly(0, 1, 4, 7);
        assertThat(sink.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(5 * MS, 7 * MS, 9 * MS, 11 * MS);
    }

    @Test
    @DisplayName("A stream interval of n sends n tokens per chunk at the same token rate, the first token alone")
    void streamIntervalGroupsTokens() {
        FixedSchedule schedule = new FixedSchedule(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(2))
                .withStreamInterval(3));
        RecordingSink sink = submit(schedule, Generations.ignoringEos("a", 0, 8, 6));
        runToCompletion(schedule);
        assertThat(sink.emissions).extracting(RecordingSink.Emission::count).containsExactly(1, 3, 2);
        assertThat(sink.emissions)
                .extracting(RecordingSink.Emission::firstTokenIndex)
                .containsExactly(0, 1, 4);
        assertThat(sink.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(5 * MS, 11 * MS, 15 * MS);
    }

    @Test
    @DisplayName("Jitter keeps TTFT and every interval within their fraction, seeded per request")
    void jitterStaysWithinItsFraction() {
        PerformanceModel model = PerformanceModel.fixed(Duration.ofMillis(2), Duration.ofMillis(1))
                .withJitter(0.25);
        FixedSchedule schedule = new FixedSchedule(model);
        RecordingSink sink = submit(schedule, Generations.ignoringEos("a", 0, 8, 200));
        RecordingSink twin = submit(schedule, Generations.ignoringEos("a", 0, 8, 200));
        runToCompletion(schedule);
        assertThat(sink.firstTokenNanos()).isBetween(1_500_000L, 2_500_000L);
        List<Long> intervals = new ArrayList<>();
        for (int i = 1; i < sink.emissions.size(); i++) {
            intervals.add(sink.emissions.get(i).intendedNanos()
                    - sink.emissions.get(i - 1).intendedNanos());
        }
        assertThat(intervals).allSatisfy(gap -> assertThat(gap).isBetween(750_000L, 1_250_000L));
        assertThat(intervals.stream().distinct().count()).isGreaterThan(150);
        // Same request seed, same draws.
        assertThat(twin.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .isEqualTo(sink.emissions.stream()
                        .map(RecordingSink.Emission::intendedNanos)
                        .toList());
    }

    @Test
    @DisplayName("With a slot limit, the next generation starts when a running one ends, FCFS")
    void slotLimitQueuesFcfs() {
        FixedSchedule schedule = new FixedSchedule(PerformanceModel.fixed(Duration.ofMillis(4), Duration.ofMillis(2))
                .withMaxNumSeqs(1));
        RecordingSink first = submit(schedule, Generations.ignoringEos("a", 0, 8, 3));
        RecordingSink second = submit(schedule, Generations.ignoringEos("b", 1 * MS, 8, 2));
        assertThat(schedule.snapshot().running()).isEqualTo(1);
        assertThat(schedule.snapshot().waiting()).isEqualTo(1);
        runToCompletion(schedule);
        assertThat(first.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(4 * MS, 6 * MS, 8 * MS);
        assertThat(second.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(12 * MS, 14 * MS);
    }

    @Test
    @DisplayName("A cancelled stream ends with abort at its next due time and frees its slot")
    void cancelledStreamsAreDropped() {
        FixedSchedule schedule = new FixedSchedule(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1))
                .withMaxNumSeqs(1));
        RecordingSink cancelled = submit(schedule, Generations.ignoringEos("a", 0, 8, 1_000));
        RecordingSink next = submit(schedule, Generations.ignoringEos("b", 0, 8, 2));
        schedule.emitDue(5 * MS);
        cancelled.cancelled = true;
        runToCompletion(schedule);
        assertThat(cancelled.finishReason).isEqualTo("abort");
        assertThat(cancelled.tokens()).isEqualTo(5);
        assertThat(cancelled.finishNanos).isEqualTo(6 * MS);
        assertThat(next.emissions)
                .extracting(RecordingSink.Emission::intendedNanos)
                .containsExactly(7 * MS, 8 * MS);
    }

    @Test
    @DisplayName("Natural output lengths end some generations early with stop")
    void naturalStops() {
        FixedSchedule schedule = new FixedSchedule(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1))
                .withMeanOutputTokens(10));
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            sinks.add(submit(schedule, Generations.natural("r" + i, 0, 8, 30, i)));
        }
        runToCompletion(schedule);
        assertThat(sinks).anySatisfy(sink -> assertThat(sink.finishReason).isEqualTo("stop"));
        assertThat(sinks).anySatisfy(sink -> assertThat(sink.finishReason).isEqualTo("length"));
        assertThat(sinks)
                .allSatisfy(
                        sink -> assertThat(sink.finishReason.equals("length")).isEqualTo(sink.tokens() == 30));
    }
}
