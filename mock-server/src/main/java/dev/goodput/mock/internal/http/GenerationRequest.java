package dev.goodput.mock.internal.http;

/**
 * A validated {@code /v1/completions} or {@code /v1/chat/completions} request, reduced to what the server
 * needs.
 *
 * @param chat whether it came from the chat endpoint
 * @param promptTokenHashes one hash per prompt token ({@link dev.goodput.mock.WordTokenizer})
 * @param maxTokens the most output tokens
 * @param minTokens the fewest output tokens before a natural stop
 * @param ignoreEos whether to generate exactly {@code maxTokens}
 * @param seed the request's {@code seed}, or null if it gave none
 * @param temperature the sampling temperature (only its zero-ness matters here)
 * @param stream whether to stream
 * @param includeUsage {@code stream_options.include_usage}
 * @param continuousUsage {@code stream_options.continuous_usage_stats}
 * @param reasoningTokens the leading output tokens sent as reasoning, 0 for none
 * @param toolName the function the answer calls (the first of the request's {@code tools}), or null to answer in
 *     text
 */
record GenerationRequest(
        boolean chat,
        long[] promptTokenHashes,
        int maxTokens,
        int minTokens,
        boolean ignoreEos,
        Long seed,
        double temperature,
        boolean stream,
        boolean includeUsage,
        boolean continuousUsage,
        int reasoningTokens,
        String toolName) {

    int promptTokens() {
        return promptTokenHashes.length;
    }
}
