package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.mock.ModelPredictions;
import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SaturationProbeTest {

    @Test
    @DisplayName("Single-slot saturates at one request per (TTFT + (n - 1) TPOT)")
    void singleSlotSaturationIsExact() {
        PerformanceModel slot = PerformanceModel.singleSlot(Duration.ofMillis(100), Duration.ofMillis(20));
        assertThat(ModelPredictions.of(slot).maxRequestsPerSecond(50, 11)).isCloseTo(1 / 0.3, within(1e-9));
        assertThat(ModelPredictions.of(slot).maxConcurrentSequences(50, 11)).isEqualTo(1);
    }

    @Test
    @DisplayName("The knee is where batch slots or the KV cache run out, whichever comes first")
    void kneeIsSlotsOrCache() {
        PerformanceModel h100 = PerformanceModel.preset("h100-llama3-8b");
        assertThat(ModelPredictions.of(h100).maxConcurrentSequences(100, 100)).isEqualTo(1024); // slots
        assertThat(ModelPredictions.of(h100).maxConcurrentSequences(1024, 1024)).isEqualTo(200); // 409,600 / 2,048
        assertThat(ModelPredictions.of(PerformanceModel.preset("l4-llama3-8b")).maxConcurrentSequences(1024, 1024))
                .isEqualTo(10);
        assertThat(ModelPredictions.of(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1)))
                        .maxRequestsPerSecond(10, 10))
                .isInfinite();
        assertThatThrownBy(() -> ModelPredictions.of(h100).maxRequestsPerSecond(8000, 500))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 8192 together");
    }

    @Test
    @DisplayName("An open-loop rate just below the probed maximum keeps the queue bounded, just above it does not")
    void probedMaximumSeparatesStableFromExploding() {
        PerformanceModel tiny = PerformanceModel.preset("tiny-test");
        double maximum = ModelPredictions.of(tiny).maxRequestsPerSecond(64, 64);
        assertThat(maximum).isBetween(4.0, 12.0);
        assertThat(waitingAfter(tiny, 0.8 * maximum, 30)).isLessThan(5);
        assertThat(waitingAfter(tiny, 1.2 * maximum, 30)).isGreaterThan(20);
    }

    private static int waitingAfter(PerformanceModel model, double requestsPerSecond, int seconds) {
        VirtualTimeRun run = new VirtualTimeRun(model);
        long interval = (long) (1e9 / requestsPerSecond);
        for (long arrival = 0; arrival < seconds * 1_000_000_000L; arrival += interval) {
            run.submit(Generations.ignoringEos("r" + arrival, arrival, 64, 64));
        }
        run.runUntil(seconds * 1_000_000_000L);
        return run.scheduler.snapshot().waiting();
    }
}
