package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PerformanceModelTest {

    private static final double MS = 1e6;

    @Test
    @DisplayName("The presets are listed with the default first, and an unknown name lists the known ones")
    void presetsAreListedAndUnknownNamesAreExplained() {
        assertThat(PerformanceModel.presetNames())
                .containsExactly(
                        "h100-llama3-8b", "a100-llama3-8b", "l4-llama3-8b", "tiny-test", "fixed", "single-slot");
        assertThat(PerformanceModel.defaultModel().name()).isEqualTo("h100-llama3-8b");
        for (String name : PerformanceModel.presetNames()) {
            assertThat(PerformanceModel.preset(name).name()).isEqualTo(name);
        }
        assertThatThrownBy(() -> PerformanceModel.preset("b200"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("b200")
                .hasMessageContaining("h100-llama3-8b, a100-llama3-8b");
    }

    @Test
    @DisplayName("The H100 preset reproduces the roofline table divided by its utilisation, plus 1 ms overhead")
    void h100PresetMatchesTheRooflineTable() {
        PerformanceModel h100 = PerformanceModel.preset("h100-llama3-8b");
        assertThat(h100.kvCacheTokens()).isEqualTo(409_600);
        assertThat(h100.maxNumSeqs()).isEqualTo(1024);
        assertThat(h100.maxNumBatchedTokens()).isEqualTo(8192);
        assertThat(h100.blockSize()).isEqualTo(16);
        // Ideal memory times 4.83 ms (B=1, 1k), 9.92 ms (B=64, 2k), 15.05 ms (B=128, 2k), divided by MBU 0.75.
        assertThat(ModelPredictions.of(h100).decodeStepNanos(1, 1024) / MS).isCloseTo(4.83 / 0.75 + 1, within(0.05));
        assertThat(ModelPredictions.of(h100).decodeStepNanos(64, 64 * 2048) / MS)
                .isCloseTo(9.92 / 0.75 + 1, within(0.1));
        assertThat(ModelPredictions.of(h100).decodeStepNanos(128, 128 * 2048) / MS)
                .isCloseTo(15.05 / 0.75 + 1, within(0.1));
        // Ideal prefill of 2,048 tokens is 34.4 ms; at MFU 0.5, 68.8 ms.
        assertThat(ModelPredictions.of(h100).prefillNanos(2048) / MS).isCloseTo(34.4 / 0.5 + 1, within(0.5));
    }

    @Test
    @DisplayName("The L4 preset is slow and small: a 73 ms step at batch 1 and about 21k tokens of KV cache")
    void l4PresetIsSlowAndSmall() {
        PerformanceModel l4 = PerformanceModel.preset("l4-llama3-8b");
        assertThat(ModelPredictions.of(l4).decodeStepNanos(1, 1024) / MS).isCloseTo(73, within(1.0));
        assertThat(l4.kvCacheTokens()).isBetween(21_000L, 22_000L);
        assertThat(ModelPredictions.of(PerformanceModel.preset("a100-llama3-8b"))
                                .decodeStepNanos(1, 1024)
                        / MS)
                .isCloseTo(11.6, within(0.2));
    }

    @Test
    @DisplayName("Decode throughput rises with batch size while memory-bound and flattens past the knee")
    void decodeThroughputFlattensPastTheKnee() {
        PerformanceModel h100 = PerformanceModel.preset("h100-llama3-8b");
        double[] tokensPerSecond = new double[4];
        int[] batches = {1, 8, 64, 256};
        for (int i = 0; i < batches.length; i++) {
            tokensPerSecond[i] =
                    batches[i] * 1e9 / ModelPredictions.of(h100).decodeStepNanos(batches[i], batches[i] * 2048L);
        }
        assertThat(tokensPerSecond[1] / tokensPerSecond[0]).as("8 vs 1").isGreaterThan(6);
        assertThat(tokensPerSecond[2] / tokensPerSecond[1]).as("64 vs 8").isBetween(3.0, 8.0);
        assertThat(tokensPerSecond[3] / tokensPerSecond[2]).as("256 vs 64").isLessThan(2.0);
    }

    @Test
    @DisplayName("A step holding a big prefill chunk costs many decode steps")
    void bigPrefillChunkDominatesAStep() {
        PerformanceModel h100 = PerformanceModel.preset("h100-llama3-8b");
        long decodeOnly = ModelPredictions.of(h100).stepNanos(64, 64 * 2048L, 0, 0);
        long withChunk = ModelPredictions.of(h100).stepNanos(64, 64 * 2048L, 8128, 0);
        assertThat((double) withChunk / decodeOnly).isGreaterThan(8);
    }

    @Test
    @DisplayName("Speculative chunks of k tokens cost 10% more per extra token on a memory-bound step")
    void speculativeChunksCostTenPercentPerExtraToken() {
        PerformanceModel tiny = PerformanceModel.preset("tiny-test").withStepOverhead(Duration.ZERO);
        long single = ModelPredictions.of(tiny).decodeStepNanos(1, 100);
        long four = ModelPredictions.of(tiny.withTokensPerChunk(4)).decodeStepNanos(1, 100);
        assertThat((double) four / single).isCloseTo(1.3, within(0.001));
    }

    @Test
    @DisplayName("Fixed and single-slot models have exactly their configured costs")
    void constantCostModelsAreExact() {
        PerformanceModel fixed = PerformanceModel.fixed(Duration.ofMillis(50), Duration.ofMillis(10));
        assertThat(fixed.mode()).isEqualTo(PerformanceModel.Mode.FIXED);
        assertThat(ModelPredictions.of(fixed).prefillNanos(10_000)).isEqualTo(50_000_000);
        assertThat(ModelPredictions.of(fixed).decodeStepNanos(500, 1_000_000)).isEqualTo(10_000_000);
        PerformanceModel instant = PerformanceModel.fixed(Duration.ZERO, Duration.ofMillis(5));
        assertThat(ModelPredictions.of(instant).prefillNanos(100)).isZero();
        assertThat(instant.maxNumSeqs()).isEqualTo(Integer.MAX_VALUE);
        PerformanceModel slot = PerformanceModel.preset("single-slot");
        assertThat(slot.mode()).isEqualTo(PerformanceModel.Mode.CONTINUOUS_BATCHING);
        assertThat(slot.maxNumSeqs()).isEqualTo(1);
        assertThat(ModelPredictions.of(slot).prefillNanos(3)).isEqualTo(100_000_000);
        assertThat(ModelPredictions.of(slot).decodeStepNanos(1, 50)).isEqualTo(20_000_000);
    }

    @Test
    @DisplayName("withX returns a changed copy and leaves the original as it was")
    void withMethodsCopy() {
        PerformanceModel original = PerformanceModel.preset("tiny-test");
        PerformanceModel changed = original.withMaxNumSeqs(3).withSeed(42).withJitter(0.2);
        assertThat(original.maxNumSeqs()).isEqualTo(8);
        assertThat(changed.maxNumSeqs()).isEqualTo(3);
        assertThat(changed.seed()).isEqualTo(42);
        assertThat(changed.describe()).containsEntry("max_num_seqs", 3).containsEntry("jitter", 0.2);
        assertThat(changed).isEqualTo(original.withSeed(42).withJitter(0.2).withMaxNumSeqs(3));
        assertThat(changed).isNotEqualTo(original);
    }

    @Test
    @DisplayName("A KV cache too small for one maximal sequence is refused, as vLLM refuses to start")
    void tooSmallCacheIsRefused() {
        assertThatThrownBy(() -> PerformanceModel.preset("tiny-test").withKvCacheTokens(1000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max model length 2048");
        assertThatThrownBy(() -> PerformanceModel.preset("tiny-test").withJitter(1.5))
                .hasMessageContaining("jitter");
    }

    @Test
    @DisplayName("Calibrating MBU and MFU scales decode and prefill times, and is refused for constant costs")
    void utilizationCalibratesTheRoofline() {
        PerformanceModel h100 = PerformanceModel.preset("h100-llama3-8b").withStepOverhead(Duration.ZERO);
        PerformanceModel calibrated = h100.withUtilization(0.6, 0.25);
        assertThat((double) ModelPredictions.of(calibrated).decodeStepNanos(8, 8192)
                        / ModelPredictions.of(h100).decodeStepNanos(8, 8192))
                .isCloseTo(0.75 / 0.6, within(0.001));
        assertThat((double) ModelPredictions.of(calibrated).prefillNanos(4096)
                        / ModelPredictions.of(h100).prefillNanos(4096))
                .isCloseTo(2.0, within(0.001));
        assertThatThrownBy(() -> PerformanceModel.preset("fixed").withUtilization(0.5, 0.5))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> h100.withUtilization(1.5, 0.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @DisplayName(
            "A recalibrated preset is named apart from the stock one, so a gate's server metadata tells them apart")
    void utilizationRenamesTheModel() {
        PerformanceModel h100 = PerformanceModel.preset("h100-llama3-8b");

        assertThat(h100.withUtilization(0.6, 0.25).name()).isEqualTo("h100-llama3-8b (MBU 0.60, MFU 0.25)");
        assertThat(h100.withUtilization(0.6, 0.25).withUtilization(0.5, 0.4).name())
                .isEqualTo("h100-llama3-8b (MBU 0.50, MFU 0.40)");
        assertThat(h100.withUtilization(0.6, 0.25).withName("our-h100").name()).isEqualTo("our-h100");
        assertThat(h100.name()).isEqualTo("h100-llama3-8b");
    }

    @Test
    void a_slower_decode_divides_the_bandwidth_utilisation_and_multiplies_the_step_overhead_by_the_factor() {
        PerformanceModel model = PerformanceModel.preset("h100-llama3-8b");
        PerformanceModel slower = model.withSlowerDecode(1.05);

        assertThat(slower.memoryBandwidthUtilization())
                .isCloseTo(model.memoryBandwidthUtilization() / 1.05, within(1e-12));
        assertThat(slower.modelFlopsUtilization()).isEqualTo(model.modelFlopsUtilization());
        assertThat(slower.stepOverheadNanos()).isEqualTo(Math.round(model.stepOverheadNanos() * 1.05));
    }

    @Test
    void a_slower_prefill_divides_the_flops_utilisation_only_and_a_factor_must_be_positive() {
        PerformanceModel model = PerformanceModel.preset("h100-llama3-8b");
        PerformanceModel slower = model.withSlowerPrefill(1.10);

        assertThat(slower.modelFlopsUtilization()).isCloseTo(model.modelFlopsUtilization() / 1.10, within(1e-12));
        assertThat(slower.memoryBandwidthUtilization()).isEqualTo(model.memoryBandwidthUtilization());
        assertThat(slower.stepOverheadNanos()).isEqualTo(model.stepOverheadNanos());
        assertThatThrownBy(() -> model.withSlowerDecode(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a slowdown factor must be a positive number, was 0.0");
    }
}
