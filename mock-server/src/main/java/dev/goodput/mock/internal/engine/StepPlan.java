package dev.goodput.mock.internal.engine;

import java.util.List;

/**
 * One planned engine step: when it starts and ends on the model's clock, what it holds, and what it delivers.
 *
 * @param startNanos the step's start (the previous step's planned end, or the first arrival on an idle engine)
 * @param endNanos the step's planned end, when its tokens are emitted
 * @param decodeSequences sequences that decoded in the step
 * @param prefillTokens prompt (or recomputed) tokens computed in the step
 * @param dropped finishes of cancelled generations, due at the step's start
 * @param emissions tokens and finishes due at the step's end
 */
record StepPlan(
        long startNanos,
        long endNanos,
        int decodeSequences,
        int prefillTokens,
        List<Emission> dropped,
        List<Emission> emissions) {

    long durationNanos() {
        return endNanos - startNanos;
    }

    /**
     * Something a sink is told: {@code count} tokens from {@code firstTokenIndex} (none if 0), then the finish
     * reason if not null.
     */
    record Emission(TokenSink sink, int firstTokenIndex, int count, String finishReason, long intendedNanos) {

        void deliver() {
            if (count > 0) {
                sink.onTokens(firstTokenIndex, count, intendedNanos);
            }
            if (finishReason != null) {
                sink.onFinish(finishReason, intendedNanos);
            }
        }
    }
}
