package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FixedEngineTest {

    private static final long MS = 1_000_000;

    /**
     * How late a delivery may be before the test fails. Loose on purpose: shared build machines stall threads for
     * tens of milliseconds (54 ms seen on a busy 2-core box); what must never happen is an early delivery.
     */
    private static final long LATENESS_BOUND_NANOS = 500 * MS;

    @Test
    @DisplayName("A fixed model emits at arrival + TTFT + i * TPOT exactly, and never before the intended time")
    void fixedModelEmitsAtExactIntendedTimesAndNeverEarly() throws InterruptedException {
        PerformanceModel model = PerformanceModel.fixed(Duration.ofMillis(20), Duration.ofMillis(5));
        List<RecordingSink> sinks = new ArrayList<>();
        List<Long> arrivals = new ArrayList<>();
        try (InferenceEngine engine = Engines.start(model)) {
            for (int i = 0; i < 20; i++) {
                RecordingSink sink = new RecordingSink();
                long arrival = System.nanoTime();
                engine.submit(Generations.ignoringEos("r" + i, arrival, 16, 10), sink);
                sinks.add(sink);
                arrivals.add(arrival);
            }
            for (RecordingSink sink : sinks) {
                assertThat(sink.awaitFinish(10)).isTrue();
            }
        }
        for (int r = 0; r < sinks.size(); r++) {
            RecordingSink sink = sinks.get(r);
            assertThat(sink.finishReason).isEqualTo("length");
            assertThat(sink.tokens()).isEqualTo(10);
            for (int i = 0; i < sink.emissions.size(); i++) {
                RecordingSink.Emission emission = sink.emissions.get(i);
                assertThat(emission.firstTokenIndex()).isEqualTo(i);
                assertThat(emission.intendedNanos()).isEqualTo(arrivals.get(r) + 20 * MS + i * 5 * MS);
                long lateness = emission.deliveredNanos() - emission.intendedNanos();
                assertThat(lateness).as("lateness in ns").isBetween(0L, LATENESS_BOUND_NANOS);
            }
        }
    }

    @Test
    @DisplayName("A cancelled fixed-mode stream is dropped at its next emission with abort")
    void fixedModelDropsCancelledStreams() throws InterruptedException {
        RecordingSink sink = new RecordingSink();
        try (InferenceEngine engine =
                Engines.start(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1)))) {
            engine.submit(Generations.ignoringEos("a", System.nanoTime(), 8, 100_000), sink);
            long deadline = System.nanoTime() + 5_000 * MS;
            while (sink.emissions.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            sink.cancelled = true;
            assertThat(sink.awaitFinish(10)).isTrue();
            assertThat(engine.snapshot().running()).isZero();
        }
        assertThat(sink.finishReason).isEqualTo("abort");
        assertThat(sink.tokens()).isBetween(1, 99_999);
    }
}
