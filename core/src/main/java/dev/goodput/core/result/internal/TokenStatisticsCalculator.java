package dev.goodput.core.result.internal;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.TokenComparison;
import dev.goodput.core.result.TokenStatistics;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Counts tokens, their sources and the server-versus-client differences of successful measured requests. */
final class TokenStatisticsCalculator {

    private TokenStatisticsCalculator() {}

    static TokenStatistics compute(List<RequestRecord> successes, long ignoreEosRequests, long shorterThanAsked) {
        long input = 0;
        long output = 0;
        Map<TokenCountSource, Long> sources = new EnumMap<>(TokenCountSource.class);
        Map<String, Long> finishReasons = new TreeMap<>();
        Comparison prompt = new Comparison();
        Comparison generated = new Comparison();
        for (RequestRecord record : successes) {
            input += Math.max(0, record.inputTokens());
            output += record.outputTokens();
            sources.merge(record.outputTokenSource(), 1L, Long::sum);
            finishReasons.merge(record.finishReason() == null ? "none" : record.finishReason(), 1L, Long::sum);
            if (record.serverPromptTokens() >= 0 && record.clientPromptTokens() >= 0) {
                prompt.add(record.serverPromptTokens() - record.clientPromptTokens());
            }
            if (record.outputTokenSource().isServerCount() && record.clientOutputTokens() >= 0) {
                generated.add(record.outputTokens() - record.clientOutputTokens());
            }
        }
        return new TokenStatistics(
                input,
                output,
                sources,
                prompt.result(),
                generated.result(),
                finishReasons,
                ignoreEosRequests,
                shorterThanAsked);
    }

    private static final class Comparison {
        private long compared;
        private long differing;
        private long sum;
        private long maxAbsolute;

        void add(long difference) {
            compared++;
            if (difference != 0) {
                differing++;
            }
            sum += difference;
            maxAbsolute = Math.max(maxAbsolute, Math.abs(difference));
        }

        TokenComparison result() {
            return new TokenComparison(
                    compared, differing, compared == 0 ? Double.NaN : (double) sum / compared, maxAbsolute);
        }
    }
}
