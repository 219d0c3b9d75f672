package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.SplittableRandom;

/**
 * How many tokens a generation produces and why it stops, decided when it is submitted.
 *
 * <p>With {@code ignoreEos} the generation runs to {@code maxTokens} ("length"). Otherwise a natural length is
 * drawn from a geometric distribution with the model's mean output length, seeded by the request's seed mixed with
 * the model's, so the same request on the same model always stops at the same token: below {@code maxTokens} it
 * stops there ("stop", raised to {@code minTokens} if needed); at or beyond, it is cut at {@code maxTokens}
 * ("length"). The output is also cut where the context would exceed the model's maximum length.
 *
 * @param tokens the output tokens to generate, at least 1
 * @param finishReason {@code "stop"} or {@code "length"}
 */
record OutputLength(int tokens, String finishReason) {

    static OutputLength of(Generation generation, PerformanceModel model) {
        int room = Math.max(1, model.maxModelLen() - generation.promptTokens());
        int limit = Math.max(1, Math.min(generation.maxTokens(), room));
        if (generation.ignoreEos()) {
            return new OutputLength(limit, "length");
        }
        long natural = naturalLength(new SplittableRandom(mix(generation.seed(), model.seed())), model);
        long atLeast = Math.max(natural, Math.max(1, generation.minTokens()));
        return atLeast >= limit ? new OutputLength(limit, "length") : new OutputLength((int) atLeast, "stop");
    }

    private static long naturalLength(SplittableRandom random, PerformanceModel model) {
        double mean = model.meanOutputTokens();
        if (mean <= 1) {
            return 1;
        }
        // Inverse CDF of the geometric distribution on {1, 2, ...} with success probability 1 / mean.
        double uniform = 1.0 - random.nextDouble();
        return 1 + (long) Math.floor(Math.log(uniform) / Math.log(1.0 - 1.0 / mean));
    }

    static long mix(long requestSeed, long modelSeed) {
        return requestSeed * 0x9E3779B97F4A7C15L ^ modelSeed;
    }
}
