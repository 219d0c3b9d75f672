package dev.goodput.core.record;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The server's own timing of one request, as its stream reported it: llama.cpp's server puts a {@code timings}
 * object on its last chunk. Set beside the client's figures, it splits a latency into the engine's part and the
 * rest (queueing for a slot, HTTP, the network); docs/real-servers.md shows how well the two agree.
 *
 * @param cachedPromptTokens prompt tokens taken from the server's prompt cache, not evaluated ({@code cache_n}),
 *     or -1 when not reported
 * @param promptTokens prompt tokens the engine evaluated for this request ({@code prompt_n}); cached ones excluded
 * @param promptMillis the engine's time evaluating them ({@code prompt_ms})
 * @param predictedTokens tokens the engine generated ({@code predicted_n})
 * @param predictedMillis the engine's time generating them ({@code predicted_ms})
 * @param predictedMillisPerToken the engine's own time per generated token ({@code predicted_per_token_ms}), or
 *     {@link Double#NaN} when not reported. llama.cpp divides {@code predicted_ms} by {@code predicted_n - 1}: the
 *     first token comes out of the prompt's evaluation, as in TPOT
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record ServerTimings(
        int cachedPromptTokens,
        int promptTokens,
        double promptMillis,
        int predictedTokens,
        double predictedMillis,
        double predictedMillisPerToken) {}
