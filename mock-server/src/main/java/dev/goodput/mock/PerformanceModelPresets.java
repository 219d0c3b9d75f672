package dev.goodput.mock;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The settings of the named performance models; {@link PerformanceModel#preset} documents how each is derived.
 * Hands out settings rather than models, so that the model depends on its presets and not the other way round.
 */
final class PerformanceModelPresets {

    static final String DEFAULT = "h100-llama3-8b";

    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final long MILLISECOND = 1_000_000;
    private static final long LLAMA3_8B_PARAMETERS = 8_030_000_000L;
    private static final long LLAMA3_8B_KV_BYTES_PER_TOKEN = 2L * 32 * 8 * 128 * 2;
    private static final long LLAMA3_8B_ATTENTION_FLOPS_PER_PAIR = 4L * 32 * 4096;

    private static final Map<String, Supplier<PerformanceModelSettings>> PRESETS = presets();

    private PerformanceModelPresets() {}

    /** Returns a fresh copy of the named preset's settings. */
    static PerformanceModelSettings byName(String name) {
        Supplier<PerformanceModelSettings> preset = PRESETS.get(name);
        if (preset == null) {
            throw new IllegalArgumentException(
                    "Unknown performance model preset '" + name + "'; known presets: " + String.join(", ", names()));
        }
        return preset.get();
    }

    static Set<String> names() {
        return Collections.unmodifiableSet(PRESETS.keySet());
    }

    private static Map<String, Supplier<PerformanceModelSettings>> presets() {
        Map<String, Supplier<PerformanceModelSettings>> presets = new LinkedHashMap<>();
        presets.put(DEFAULT, () -> llama3(DEFAULT, "NVIDIA H100 SXM 80GB", 3.35e12, 989e12, 50 * GIB, 1024, 8192));
        presets.put(
                "a100-llama3-8b",
                () -> llama3("a100-llama3-8b", "NVIDIA A100 SXM 80GB", 2.039e12, 312e12, 50 * GIB, 256, 2048));
        presets.put(
                "l4-llama3-8b", () -> llama3("l4-llama3-8b", "NVIDIA L4 24GB", 300e9, 121e12, 2.66 * GIB, 256, 2048));
        presets.put("tiny-test", PerformanceModelPresets::tinyTest);
        presets.put("fixed", () -> PerformanceModelSettings.fixed("fixed", MILLISECOND * 50, MILLISECOND * 10));
        presets.put(
                "single-slot",
                () -> PerformanceModelSettings.singleSlot("single-slot", MILLISECOND * 100, MILLISECOND * 20));
        return presets;
    }

    private static PerformanceModelSettings llama3(
            String name,
            String hardware,
            double bandwidth,
            double flops,
            double kvCacheBytes,
            int maxNumSeqs,
            int maxNumBatchedTokens) {
        PerformanceModelSettings settings = new PerformanceModelSettings();
        settings.name = name;
        settings.hardware = hardware;
        settings.servedModel = "meta-llama/Meta-Llama-3-8B-Instruct";
        settings.parameterCount = LLAMA3_8B_PARAMETERS;
        settings.weightBytes = 2 * LLAMA3_8B_PARAMETERS;
        settings.kvBytesPerToken = LLAMA3_8B_KV_BYTES_PER_TOKEN;
        settings.attentionFlopsPerTokenPair = LLAMA3_8B_ATTENTION_FLOPS_PER_PAIR;
        settings.memoryBandwidth = bandwidth;
        settings.peakFlops = flops;
        settings.mbu = 0.75;
        settings.mfu = 0.5;
        settings.stepOverheadNanos = 1_000_000;
        settings.kvCacheTokens = (long) (kvCacheBytes / LLAMA3_8B_KV_BYTES_PER_TOKEN) / 16 * 16;
        settings.maxNumSeqs = maxNumSeqs;
        settings.maxNumBatchedTokens = maxNumBatchedTokens;
        settings.maxModelLen = 8192;
        return settings;
    }

    private static PerformanceModelSettings tinyTest() {
        PerformanceModelSettings settings = new PerformanceModelSettings();
        settings.name = "tiny-test";
        settings.hardware = "simulated 100 GB/s, 10 TFLOP/s device";
        settings.servedModel = "goodput/tiny-test";
        settings.parameterCount = 500_000_000L;
        settings.weightBytes = 1_000_000_000L;
        settings.kvBytesPerToken = 256 * 1024;
        settings.attentionFlopsPerTokenPair = 4L * 16 * 2048;
        settings.memoryBandwidth = 100e9;
        settings.peakFlops = 10e12;
        settings.stepOverheadNanos = 1_000_000;
        settings.kvCacheTokens = 4096;
        settings.maxNumSeqs = 8;
        settings.maxNumBatchedTokens = 512;
        settings.maxModelLen = 2048;
        settings.meanOutputTokens = 64;
        return settings;
    }
}
