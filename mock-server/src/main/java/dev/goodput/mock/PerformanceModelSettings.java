package dev.goodput.mock;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The mutable bag of values behind an immutable {@link PerformanceModel}: each {@code withX} copies it, changes one
 * field and validates the result, so validation lives in one place.
 */
final class PerformanceModelSettings implements Cloneable {

    /** Effectively unlimited, for fixed mode; small enough that sums of it do not overflow a long. */
    private static final int UNLIMITED = Integer.MAX_VALUE;

    String name;
    /** Continuous batching (the model's mode), or fixed mode when false; a flag so settings need no model type. */
    boolean batching = true;

    String hardware = "none";
    String servedModel = "none";

    // Roofline (0 for models with constant costs).
    long parameterCount;
    long weightBytes;
    long kvBytesPerToken;
    long attentionFlopsPerTokenPair;
    double memoryBandwidth = 1;
    double peakFlops = 1;
    double mbu = 1;
    double mfu = 1;
    long stepOverheadNanos;

    // Constant costs (fixed and single-slot models).
    boolean constantCosts;
    long constantTtftNanos;
    long constantTpotNanos;

    // Capacity and scheduling, as vLLM's engine arguments.
    int maxNumSeqs;
    int maxNumBatchedTokens;
    long kvCacheTokens;
    int blockSize = 16;
    int maxModelLen;
    boolean prefixCaching = true;

    // Behaviour.
    int tokensPerChunk = 1;
    int streamInterval = 1;
    double jitter;
    long seed;
    int meanOutputTokens = 256;
    int reasoningTokens;

    static PerformanceModelSettings fixed(String name, long ttftNanos, long tpotNanos) {
        PerformanceModelSettings settings = new PerformanceModelSettings();
        settings.name = name;
        settings.batching = false;
        settings.constantCosts = true;
        settings.constantTtftNanos = ttftNanos;
        settings.constantTpotNanos = tpotNanos;
        settings.maxNumSeqs = UNLIMITED;
        settings.maxNumBatchedTokens = UNLIMITED;
        settings.kvCacheTokens = UNLIMITED;
        settings.maxModelLen = 131_072;
        settings.prefixCaching = false;
        return settings;
    }

    static PerformanceModelSettings singleSlot(String name, long ttftNanos, long tpotNanos) {
        PerformanceModelSettings settings = new PerformanceModelSettings();
        settings.name = name;
        settings.constantCosts = true;
        settings.constantTtftNanos = ttftNanos;
        settings.constantTpotNanos = tpotNanos;
        settings.maxNumSeqs = 1;
        // The whole prompt fits one step, so the first token comes after exactly one (TTFT) step.
        settings.maxModelLen = 32_768;
        settings.maxNumBatchedTokens = 32_768;
        settings.kvCacheTokens = 65_536;
        settings.prefixCaching = false;
        return settings;
    }

    PerformanceModelSettings copy() {
        try {
            return (PerformanceModelSettings) clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    void validate() {
        require(name != null && !name.isBlank(), "name", name);
        require(maxNumSeqs >= 1, "maxNumSeqs", maxNumSeqs);
        require(maxNumBatchedTokens >= 1, "maxNumBatchedTokens", maxNumBatchedTokens);
        require(maxModelLen >= 2, "maxModelLen", maxModelLen);
        require(tokensPerChunk >= 1 && tokensPerChunk <= 64, "tokensPerChunk (1 to 64)", tokensPerChunk);
        require(streamInterval >= 1 && streamInterval <= 1024, "streamInterval (1 to 1024)", streamInterval);
        require(jitter >= 0 && jitter < 1, "jitter (0 <= fraction < 1)", jitter);
        require(meanOutputTokens >= 1, "meanOutputTokens", meanOutputTokens);
        require(reasoningTokens >= 0, "reasoningTokens", reasoningTokens);
        require(stepOverheadNanos >= 0, "stepOverhead", stepOverheadNanos);
        if (constantCosts) {
            require(constantTtftNanos >= 0, "ttft", constantTtftNanos + " ns");
            require(constantTpotNanos >= 0, "tpot", constantTpotNanos + " ns");
        } else {
            require(parameterCount > 0 && weightBytes > 0 && kvBytesPerToken > 0, "roofline sizes", parameterCount);
            require(memoryBandwidth > 0 && peakFlops > 0, "roofline speeds", memoryBandwidth);
            require(mbu > 0 && mbu <= 1 && mfu > 0 && mfu <= 1, "utilisation (0 < MBU, MFU <= 1)", mbu + "/" + mfu);
        }
        if (batching) {
            // As vLLM refuses to start when one maximal sequence cannot fit the cache; the margin covers the
            // partially filled last block and the speculative lookahead.
            long needed = (long) maxModelLen + blockSize + tokensPerChunk;
            if (kvCacheTokens < needed) {
                throw new IllegalArgumentException("The KV cache (" + kvCacheTokens + " tokens) cannot hold one"
                        + " sequence of max model length " + maxModelLen + "; it needs at least " + needed
                        + " tokens: raise kvCacheTokens or lower maxModelLen");
            }
        }
    }

    Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("name", name);
        description.put("mode", batching ? "continuous_batching" : "fixed");
        description.put("hardware", hardware);
        description.put("served_model", servedModel);
        if (constantCosts) {
            description.put("ttft_ms", constantTtftNanos / 1e6);
            description.put("tpot_ms", constantTpotNanos / 1e6);
        } else {
            description.put("parameters", parameterCount);
            description.put("weight_bytes", weightBytes);
            description.put("kv_bytes_per_token", kvBytesPerToken);
            description.put("attention_flops_per_token_pair", attentionFlopsPerTokenPair);
            description.put("memory_bandwidth_bytes_per_second", memoryBandwidth);
            description.put("peak_flops_per_second", peakFlops);
            description.put("memory_bandwidth_utilization", mbu);
            description.put("model_flops_utilization", mfu);
            description.put("step_overhead_ms", stepOverheadNanos / 1e6);
        }
        description.put("max_num_seqs", maxNumSeqs);
        if (batching) {
            description.put("max_num_batched_tokens", maxNumBatchedTokens);
            description.put("kv_cache_tokens", kvCacheTokens / blockSize * blockSize);
            description.put("block_size", blockSize);
            description.put("enable_prefix_caching", prefixCaching);
        }
        description.put("max_model_len", maxModelLen);
        description.put("tokens_per_chunk", tokensPerChunk);
        description.put("stream_interval", streamInterval);
        description.put("jitter", jitter);
        description.put("seed", seed);
        description.put("mean_output_tokens", meanOutputTokens);
        if (reasoningTokens > 0) {
            description.put("reasoning_tokens", reasoningTokens);
        }
        return Collections.unmodifiableMap(description);
    }

    private static void require(boolean condition, String what, Object value) {
        if (!condition) {
            throw new IllegalArgumentException("Invalid performance model setting " + what + ": " + value);
        }
    }
}
