package dev.goodput.core.result.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.report.CsvReport;
import dev.goodput.core.report.JsonReport;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.slo.internal.SloEvaluator;
import dev.goodput.core.testing.SampleResults;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * TTFO, answer TPOT and reasoning tokens from hand-made records (instants in ms of a fake clock), and what the
 * summaries, verdicts and reports make of them with reasoning and without.
 */
class StreamPhaseMetricsTest {

    private static final long MS = 1_000_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A success sent at {@code intended} that reasons from {@code firstReasoning} to {@code lastReasoning} ({@code
     * reasoning} tokens by usage, 0 for none), then answers from {@code firstAnswer} to {@code lastAnswer}; {@code
     * out} output tokens in all.
     */
    private static RequestRecord reasoned(
            long index,
            long intended,
            long firstReasoning,
            long lastReasoning,
            int reasoning,
            long firstAnswer,
            long lastAnswer,
            int out,
            int toolCalls) {
        boolean reasons = reasoning > 0;
        long first = reasons ? firstReasoning : firstAnswer;
        StreamPhases phases = new StreamPhases(
                reasons ? firstReasoning * MS : ABSENT,
                reasons ? lastReasoning * MS : ABSENT,
                firstAnswer * MS,
                lastAnswer * MS,
                reasons ? 4 : 0,
                5,
                reasoning,
                reasons ? TokenCountSource.USAGE : TokenCountSource.NONE,
                toolCalls);
        return new RequestRecord(
                index,
                Phase.MEASURED,
                intended * MS,
                intended * MS,
                intended * MS + MS,
                first * MS,
                lastAnswer * MS,
                lastAnswer * MS,
                false,
                200,
                9,
                out,
                TokenCountSource.USAGE,
                -1,
                10,
                8,
                ABSENT,
                toolCalls > 0 ? "tool_calls" : "stop",
                Outcome.SUCCESS,
                null,
                List.of(),
                0,
                null,
                phases);
    }

    private static final List<RequestRecord> REASONING_RUN = List.of(
            // TTFT 100, TTFO 500, 200 reasoning + 11 answer tokens over 500..1000: answer TPOT 50.
            reasoned(0, 0, 100, 450, 200, 500, 1000, 211, 0),
            // TTFT 50, TTFO 350, 100 reasoning + 6 answer tokens over 450..700: answer TPOT 50; one tool call.
            reasoned(1, 100, 150, 400, 100, 450, 700, 106, 1),
            // No reasoning: TTFO = TTFT = 100, answer TPOT = TPOT = 300 / 3.
            reasoned(2, 200, 0, 0, 0, 300, 600, 4, 0));

    @Test
    void should_measure_ttfo_answer_tpot_and_reasoning_tokens_per_request() {
        RunResult result = SampleResults.compute(REASONING_RUN, List.of());

        assertThat(result.summary(Metric.TTFT).percentile(50)).isEqualTo(100 * MS);
        assertThat(result.summary(Metric.TTFO).count()).isEqualTo(3);
        assertThat(result.summary(Metric.TTFO).min()).isEqualTo(100 * MS);
        assertThat(result.summary(Metric.TTFO).percentile(50)).isEqualTo(350 * MS);
        assertThat(result.summary(Metric.TTFO).max()).isEqualTo(500 * MS);
        assertThat(result.summary(Metric.ANSWER_TPOT).count()).isEqualTo(3);
        assertThat(result.summary(Metric.ANSWER_TPOT).min()).isCloseTo(50 * MS, within(1e-3));
        assertThat(result.summary(Metric.ANSWER_TPOT).max()).isCloseTo(100 * MS, within(1e-3));
        assertThat(result.summary(Metric.REASONING_TOKENS).count())
                .as("only the requests that reasoned")
                .isEqualTo(2);
        assertThat(result.summary(Metric.REASONING_TOKENS).mean()).isEqualTo(150);
    }

    @Test
    void should_judge_an_objective_on_reasoning_tokens_and_count_it_as_a_request_criterion() {
        SloSpec tokens = SloSpec.of(Metric.REASONING_TOKENS).max().atMost(150);
        RunResult result = SampleResults.compute(REASONING_RUN, List.of(tokens));

        assertThat(result.verdicts().get(0).verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(result.verdicts().get(0).measured()).isEqualTo(200);
        assertThat(result.goodRequests())
                .as("the request of 200 reasoning tokens is not good; the one without reasoning has no value")
                .isEqualTo(2);
    }

    @Test
    void should_report_reasoning_metrics_without_samples_as_inconclusive_and_keep_the_reports_whole() throws Exception {
        SloSpec tokens = SloSpec.of(Metric.REASONING_TOKENS).percentile(50).atMost(1000);
        SloSpec ttfo = SloSpec.of(Metric.TTFO).percentile(50).atMost(Duration.ofSeconds(1));
        RunResult result = SampleResults.compute(List.of(tokens, ttfo));

        SloVerdict onTokens = result.verdicts().get(0);
        assertThat(onTokens.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(onTokens.reason()).isEqualTo(SloEvaluator.NO_SAMPLES);
        assertThat(result.summary(Metric.REASONING_TOKENS).count()).isZero();
        assertThat(result.summary(Metric.TTFO))
                .as("records without phase information are all answer")
                .isEqualTo(result.summary(Metric.TTFT));
        assertThat(result.summary(Metric.ANSWER_TPOT)).isEqualTo(result.summary(Metric.TPOT));

        String console = ConsoleReport.format(result);
        assertThat(console).doesNotContain("reasoning:").contains("p50 reasoning tokens");
        JsonNode json = JSON.readTree(JsonReport.toJson(result));
        assertThat(json.at("/metrics/reasoning_tokens/count").asLong()).isZero();
        assertThat(json.at("/metrics/reasoning_tokens/p50").isNull()).isTrue();
        assertThat(json.at("/stream_phases/requests_with_reasoning").asLong()).isZero();
        StringWriter csv = new StringWriter();
        CsvReport.write(result, csv);
        assertThat(csv.toString().lines().skip(2).findFirst().orElseThrow())
                .as("request 1: no phase instants, TTFO = TTFT 100 ms, answer TPOT = TPOT 50 ms, NONE")
                .endsWith(",,,,,100.000,50.000,0,0,0,NONE,0,");
    }

    @Test
    void should_write_the_phases_to_json_csv_and_the_console_when_the_run_reasoned() throws Exception {
        RunResult result = SampleResults.compute(REASONING_RUN, List.of());

        JsonNode json = JSON.readTree(JsonReport.toJson(result));
        assertThat(json.at("/metrics/reasoning_tokens/mean").asDouble()).isEqualTo(150);
        assertThat(json.at("/metrics/ttfo_ms/max").asDouble()).isEqualTo(500);
        assertThat(json.at("/metrics/answer_tpot_ms/min").asDouble()).isCloseTo(50, within(1e-6));
        assertThat(json.at("/stream_phases/requests_with_reasoning").asLong()).isEqualTo(2);
        assertThat(json.at("/stream_phases/reasoning_tokens").asLong()).isEqualTo(300);
        assertThat(json.at("/stream_phases/reasoning_token_source/usage").asLong())
                .isEqualTo(2);
        assertThat(json.at("/stream_phases/requests_with_tool_calls").asLong()).isEqualTo(1);
        assertThat(json.at("/stream_phases/tool_calls").asLong()).isEqualTo(1);

        assertThat(ConsoleReport.format(result))
                .contains("reasoning: 2 requests, 300 reasoning tokens (p50 150, max 200), TTFO p50 350.00 ms,"
                        + " answer TPOT p50 50.00 ms; tool calls: 1 in 1 requests");

        StringWriter csv = new StringWriter();
        CsvReport.write(result, csv);
        assertThat(csv.toString().lines().skip(1).findFirst().orElseThrow())
                .as("first reasoning, last reasoning, first answer, last answer, TTFO, answer TPOT, events, tokens")
                .endsWith(",100.000,450.000,500.000,1000.000,500.000,50.000,4,5,200,USAGE,0,");
    }
}
