package dev.goodput.mock;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The named performance models, derived from roofline figures.
 *
 * <p>Llama-3-8B (8.03 B parameters; 32 layers, 32 query heads, 8 KV heads, head dimension 128) in bf16:
 * weights W = 2 * 8.03e9 = 16.06 GB, read once per step; KV = 2 (K, V) * 32 layers * 8 heads * 128 * 2 bytes =
 * 128 KiB per token; attention = 4 * 32 layers * 4096 = 524,288 FLOPs per (query, key) pair. A step costs
 * {@code max((W + KV read) / (BW * MBU), (2 * P * tokens + attention) / (F * MFU)) + 1 ms}, with MBU 0.75 (well-tuned
 * decode kernels reach 0.6-0.85) and MFU 0.5 for prefill. KV capacity is vLLM's: memory * 0.9
 * ({@code gpu_memory_utilization}) minus weights minus activations, CUDA graphs and allocator slack.
 *
 * <ul>
 *   <li>{@code h100-llama3-8b} (default): H100 SXM, 3.35 TB/s, 989 TFLOP/s. 72 GiB - 15 GiB weights - ~7 GiB =
 *       50 GiB = 409,600 tokens. vLLM V1 defaults on large non-A100 GPUs: max_num_seqs 1024,
 *       max_num_batched_tokens 8192. Decode step 7.4 ms at batch 1 (1k context), 14 ms at 64 x 2k, 35 ms at
 *       256 x 2k (beyond the cache); prefill of 2,048 tokens 69 ms.
 *   <li>{@code a100-llama3-8b}: A100 80 GB SXM, 2.04 TB/s, 312 TFLOP/s; same 409,600-token cache; vLLM's A100
 *       defaults max_num_seqs 256, max_num_batched_tokens 2048. Decode step 11.6 ms at batch 1.
 *   <li>{@code l4-llama3-8b}: L4, 24 GB, 300 GB/s, 121 TFLOP/s. 20.1 GiB - 15 GiB - ~2.4 GiB = 2.66 GiB =
 *       21,776 tokens, so about 20 sequences of 1k context fill it: the knee comes early. Defaults 256 / 2048.
 *       Decode step 73 ms at batch 1.
 *   <li>{@code tiny-test}: a fictional 0.5 B model (1 GB of weights, 256 KiB of KV per token) on a 100 GB/s,
 *       10 TFLOP/s device at full utilisation, with 8 sequences, 4,096 KV tokens, a 512-token step budget and
 *       max model length 2,048: steps of 11-22 ms, roughly 500 tokens/s at saturation, reachable from a laptop.
 *   <li>{@code fixed}: 50 ms TTFT, 10 ms TPOT, unlimited capacity, no batching.
 *   <li>{@code single-slot}: one sequence at a time, 100 ms TTFT, 20 ms TPOT, exact.
 * </ul>
 */
final class PerformanceModelPresets {

    static final String DEFAULT = "h100-llama3-8b";

    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final long LLAMA3_8B_PARAMETERS = 8_030_000_000L;
    private static final long LLAMA3_8B_KV_BYTES_PER_TOKEN = 2L * 32 * 8 * 128 * 2;
    private static final long LLAMA3_8B_ATTENTION_FLOPS_PER_PAIR = 4L * 32 * 4096;

    private static final Map<String, Supplier<PerformanceModel>> PRESETS = presets();

    private PerformanceModelPresets() {}

    static PerformanceModel byName(String name) {
        Supplier<PerformanceModel> preset = PRESETS.get(name);
        if (preset == null) {
            throw new IllegalArgumentException(
                    "Unknown performance model preset '" + name + "'; known presets: " + String.join(", ", names()));
        }
        return preset.get();
    }

    static Set<String> names() {
        return Collections.unmodifiableSet(PRESETS.keySet());
    }

    private static Map<String, Supplier<PerformanceModel>> presets() {
        Map<String, Supplier<PerformanceModel>> presets = new LinkedHashMap<>();
        presets.put(DEFAULT, () -> llama3(DEFAULT, "NVIDIA H100 SXM 80GB", 3.35e12, 989e12, 50 * GIB, 1024, 8192));
        presets.put(
                "a100-llama3-8b",
                () -> llama3("a100-llama3-8b", "NVIDIA A100 SXM 80GB", 2.039e12, 312e12, 50 * GIB, 256, 2048));
        presets.put(
                "l4-llama3-8b", () -> llama3("l4-llama3-8b", "NVIDIA L4 24GB", 300e9, 121e12, 2.66 * GIB, 256, 2048));
        presets.put("tiny-test", PerformanceModelPresets::tinyTest);
        presets.put("fixed", () -> PerformanceModel.fixed(Duration.ofMillis(50), Duration.ofMillis(10)));
        presets.put("single-slot", () -> PerformanceModel.singleSlot(Duration.ofMillis(100), Duration.ofMillis(20)));
        return presets;
    }

    private static PerformanceModel llama3(
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
        return new PerformanceModel(settings);
    }

    private static PerformanceModel tinyTest() {
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
        return new PerformanceModel(settings);
    }
}
