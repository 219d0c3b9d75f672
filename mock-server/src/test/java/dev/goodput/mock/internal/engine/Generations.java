package dev.goodput.mock.internal.engine;

import java.util.stream.LongStream;

/** Builds generations for tests. */
final class Generations {

    private Generations() {}

    static Generation ignoringEos(String id, long arrivalNanos, int promptTokens, int maxTokens) {
        return new Generation(id, arrivalNanos, distinctPrompt(id, promptTokens), maxTokens, 0, true, 0);
    }

    static Generation natural(String id, long arrivalNanos, int promptTokens, int maxTokens, long seed) {
        return new Generation(id, arrivalNanos, distinctPrompt(id, promptTokens), maxTokens, 0, false, seed);
    }

    /** A prompt whose tokens no other request shares. */
    static long[] distinctPrompt(String id, int tokens) {
        long base = (long) id.hashCode() << 32;
        return LongStream.range(0, tokens).map(i -> base + i * 7919 + 1).toArray();
    }

    /** A prompt of {@code sharedTokens} tokens common to every caller, then tokens of its own. */
    static long[] sharedPrefixPrompt(String id, int sharedTokens, int tokens) {
        long base = (long) id.hashCode() << 32;
        return LongStream.range(0, tokens)
                .map(i -> i < sharedTokens ? 1_000_003L * (i + 1) : base + i * 7919 + 1)
                .toArray();
    }
}
