package dev.goodput.mock;

/**
 * The mutable bag of values behind an immutable {@link PerformanceModel}: each {@code withX} copies it, changes one
 * field and validates the result, so validation lives in one place.
 */
final class PerformanceModelSettings implements Cloneable {

    /** Effectively unlimited, for fixed mode; small enough that sums of it do not overflow a long. */
    private static final int UNLIMITED = Integer.MAX_VALUE;

    String name;
    PerformanceModel.Mode mode = PerformanceModel.Mode.CONTINUOUS_BATCHING;
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

    // Constant costs (0 for roofline models).
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
    double jitter;
    long seed;
    int meanOutputTokens = 256;

    static PerformanceModelSettings fixed(String name, long ttftNanos, long tpotNanos) {
        PerformanceModelSettings settings = new PerformanceModelSettings();
        settings.name = name;
        settings.mode = PerformanceModel.Mode.FIXED;
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
        require(jitter >= 0 && jitter < 1, "jitter (0 <= fraction < 1)", jitter);
        require(meanOutputTokens >= 1, "meanOutputTokens", meanOutputTokens);
        require(stepOverheadNanos >= 0, "stepOverhead", stepOverheadNanos);
        if (constantTtftNanos > 0 || constantTpotNanos > 0) {
            require(constantTtftNanos > 0, "ttft", constantTtftNanos + " ns");
            require(constantTpotNanos > 0, "tpot", constantTpotNanos + " ns");
        } else {
            require(parameterCount > 0 && weightBytes > 0 && kvBytesPerToken > 0, "roofline sizes", parameterCount);
            require(memoryBandwidth > 0 && peakFlops > 0, "roofline speeds", memoryBandwidth);
            require(mbu > 0 && mbu <= 1 && mfu > 0 && mfu <= 1, "utilisation (0 < MBU, MFU <= 1)", mbu + "/" + mfu);
        }
        if (mode == PerformanceModel.Mode.CONTINUOUS_BATCHING) {
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

    private static void require(boolean condition, String what, Object value) {
        if (!condition) {
            throw new IllegalArgumentException("Invalid performance model setting " + what + ": " + value);
        }
    }
}
