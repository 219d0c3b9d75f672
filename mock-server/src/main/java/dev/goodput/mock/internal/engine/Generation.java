package dev.goodput.mock.internal.engine;

/**
 * One generation request as the engine sees it.
 *
 * @param requestId the id the HTTP layer gave the request
 * @param arrivalNanos when the request arrived, on the engine's clock
 * @param promptTokenHashes one 64-bit hash per prompt token, in order; equal prefixes give equal leading
 *     hashes, which is what the prefix cache keys on
 * @param maxTokens the most output tokens to generate (at least 1)
 * @param minTokens the fewest output tokens before a natural stop may happen
 * @param ignoreEos whether to generate exactly {@code maxTokens} tokens
 * @param seed seeds the draw of the natural output length and any jitter for this request
 */
public record Generation(
        String requestId,
        long arrivalNanos,
        long[] promptTokenHashes,
        int maxTokens,
        int minTokens,
        boolean ignoreEos,
        long seed) {

    /** Returns the number of prompt tokens. */
    public int promptTokens() {
        return promptTokenHashes.length;
    }
}
