package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;

/**
 * The roofline cost of one engine step, as section 5.2 of the server facts derives it.
 *
 * <pre>
 * bytes = W + kvB * (sum of decode contexts + sum of (offset + chunk) over prefill chunks)
 * flops = 2 P * (query tokens) + A * (decode contexts + prefill attention pairs)
 * step  = max(bytes / (BW * MBU), flops / (F * MFU)) * chunk factor + fixed overhead
 * </pre>
 *
 * <p>A decoding sequence contributes {@code tokensPerChunk} query tokens (the last sampled token plus the drafts
 * that speculative decoding verifies); drafting costs {@link #DRAFT_COST_PER_EXTRA_TOKEN} of a step per extra
 * token. Models with constant costs (fixed, single-slot) charge their TTFT for any step holding prefill work and
 * their TPOT for a pure decode step, so their timings are exact.
 */
public final class StepCost {

    /** The fraction of a step that drafting each extra speculative token adds (a small draft model). */
    public static final double DRAFT_COST_PER_EXTRA_TOKEN = 0.1;

    private StepCost() {}

    /**
     * Returns the duration of a step.
     *
     * @param decodeSequences sequences decoding in the step
     * @param decodeContextTokens the sum of their contexts (tokens whose KV each one reads, its new token included)
     * @param prefillTokens prompt tokens computed in the step, over all prefill chunks
     * @param prefillContextTokens the sum over chunks of (tokens before the chunk + chunk tokens)
     * @param prefillAttentionPairs the sum over chunks of n * offset + n * n / 2 (query-key pairs attended)
     */
    public static long stepNanos(
            PerformanceModel model,
            int decodeSequences,
            long decodeContextTokens,
            int prefillTokens,
            long prefillContextTokens,
            long prefillAttentionPairs) {
        if (decodeSequences == 0 && prefillTokens == 0) {
            return 0;
        }
        if (model.hasConstantStepCosts()) {
            return prefillTokens > 0 ? model.constantTtftNanos() : model.constantTpotNanos();
        }
        int tokensPerChunk = model.tokensPerChunk();
        double bytes =
                model.weightBytes() + (double) model.kvBytesPerToken() * (decodeContextTokens + prefillContextTokens);
        double queryTokens = (double) decodeSequences * tokensPerChunk + prefillTokens;
        double flops = 2.0 * model.parameterCount() * queryTokens
                + (double) model.attentionFlopsPerTokenPair()
                        * ((double) decodeContextTokens * tokensPerChunk + prefillAttentionPairs);
        double memorySeconds = bytes / (model.memoryBandwidthBytesPerSecond() * model.memoryBandwidthUtilization());
        double computeSeconds = flops / (model.peakFlopsPerSecond() * model.modelFlopsUtilization());
        double chunkFactor = decodeSequences > 0 ? 1 + DRAFT_COST_PER_EXTRA_TOKEN * (tokensPerChunk - 1) : 1;
        return Math.round(Math.max(memorySeconds, computeSeconds) * chunkFactor * 1e9) + model.stepOverheadNanos();
    }

    /** Returns the query-key pairs a prefill chunk of {@code tokens} new tokens after {@code offset} attends. */
    public static long attentionPairs(long offset, long tokens) {
        return tokens * offset + tokens * tokens / 2;
    }
}
