package dev.goodput.core.result.internal;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.slo.Metric;

/**
 * The per-request values of the metrics of reasoning and answer phases ({@link Metric#TTFO}, {@link
 * Metric#ANSWER_TPOT}, {@link Metric#REASONING_TOKENS}), apart from {@link ResultCalculator} so that it stays about
 * the run as a whole.
 */
final class StreamPhaseMetrics {

    private StreamPhaseMetrics() {}

    /** Returns whether the metric is one of these. */
    static boolean covers(Metric metric) {
        return metric == Metric.TTFO || metric == Metric.ANSWER_TPOT || metric == Metric.REASONING_TOKENS;
    }

    /**
     * Returns a request's own value of one of these metrics (nanoseconds, or tokens), NaN when it has none: no
     * answer event, fewer than two answer tokens, or, for reasoning tokens, no reasoning.
     */
    static double value(Metric metric, RequestRecord record) {
        return switch (metric) {
            case TTFO -> {
                long ttfo = record.ttfoNanos();
                yield ttfo == RequestRecord.ABSENT ? Double.NaN : ttfo;
            }
            case ANSWER_TPOT -> record.answerTpotNanos();
            case REASONING_TOKENS ->
                record.streamPhases().hasReasoning() ? record.streamPhases().reasoningTokens() : Double.NaN;
            default -> throw new IllegalArgumentException(metric + " is not a metric of stream phases");
        };
    }
}
