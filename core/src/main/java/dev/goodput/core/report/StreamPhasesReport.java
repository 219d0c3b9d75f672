package dev.goodput.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.internal.MetricUnits;
import dev.goodput.core.stats.Summary;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the reports say about reasoning and tool calls, over the successful measured requests: how many reasoned or
 * called tools, the reasoning tokens and where their counts came from. The JSON block is always written, so its
 * shape does not depend on the server; the console line only when something reasoned or called a tool.
 */
final class StreamPhasesReport {

    private final long reasoningRequests;
    private final long toolCallRequests;
    private final long toolCalls;
    private final long reasoningTokens;
    private final Map<TokenCountSource, Long> sources = new EnumMap<>(TokenCountSource.class);
    private final RunResult result;

    private StreamPhasesReport(RunResult result) {
        this.result = result;
        long reasoning = 0;
        long calling = 0;
        long calls = 0;
        long tokens = 0;
        for (RequestRecord record : result.records()) {
            if (record.phase() != Phase.MEASURED || !record.isSuccess()) {
                continue;
            }
            StreamPhases phases = record.streamPhases();
            if (phases.hasReasoning()) {
                reasoning++;
                tokens += phases.reasoningTokens();
                sources.merge(phases.reasoningTokenSource(), 1L, Long::sum);
            }
            if (phases.toolCalls() > 0) {
                calling++;
                calls += phases.toolCalls();
            }
        }
        this.reasoningRequests = reasoning;
        this.toolCallRequests = calling;
        this.toolCalls = calls;
        this.reasoningTokens = tokens;
    }

    static StreamPhasesReport of(RunResult result) {
        return new StreamPhasesReport(result);
    }

    /** Returns whether any successful measured request reasoned or called a tool. */
    boolean isPresent() {
        return reasoningRequests > 0 || toolCallRequests > 0;
    }

    /** Writes the {@code stream_phases} block. */
    void writeJson(JsonGenerator json) throws IOException {
        json.writeObjectFieldStart("stream_phases");
        json.writeNumberField("requests_with_reasoning", reasoningRequests);
        json.writeNumberField("reasoning_tokens", reasoningTokens);
        json.writeObjectFieldStart("reasoning_token_source");
        for (Map.Entry<TokenCountSource, Long> entry : sources.entrySet()) {
            json.writeNumberField(entry.getKey().name().toLowerCase(Locale.ROOT), entry.getValue());
        }
        json.writeEndObject();
        json.writeNumberField("requests_with_tool_calls", toolCallRequests);
        json.writeNumberField("tool_calls", toolCalls);
        json.writeEndObject();
    }

    /**
     * Returns the console line, for example {@code "reasoning: 40 requests, 12000 reasoning tokens (p50 300, p99
     * 310), TTFO p50 812.40 ms, answer TPOT p50 10.20 ms; tool calls: 40 in 40 requests"}, or null when nothing
     * reasoned or called a tool.
     */
    String consoleLine() {
        if (!isPresent()) {
            return null;
        }
        StringBuilder line = new StringBuilder();
        if (reasoningRequests > 0) {
            Summary tokens = result.summary(Metric.REASONING_TOKENS);
            // p50 is always computed (docs/metrics.md); an empty summary has none, which reads as n/a.
            line.append(String.format(
                    Locale.ROOT,
                    "reasoning: %d requests, %d reasoning tokens (p50 %s, max %s), TTFO p50 %s, answer TPOT p50 %s",
                    reasoningRequests,
                    reasoningTokens,
                    MetricUnits.format(Metric.REASONING_TOKENS, median(tokens)),
                    MetricUnits.format(Metric.REASONING_TOKENS, tokens.max()),
                    MetricUnits.format(Metric.TTFO, median(result.summary(Metric.TTFO))),
                    MetricUnits.format(Metric.ANSWER_TPOT, median(result.summary(Metric.ANSWER_TPOT)))));
        }
        if (toolCallRequests > 0) {
            line.append(line.length() == 0 ? "" : "; ")
                    .append(String.format(Locale.ROOT, "tool calls: %d in %d requests", toolCalls, toolCallRequests));
        }
        return line.toString();
    }

    private static double median(Summary summary) {
        return summary.percentiles().getOrDefault(50.0, Double.NaN);
    }
}
