package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.workload.LengthDistribution;
import dev.goodput.core.workload.RandomWorkload;
import dev.goodput.core.workload.RequestShape;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.RequestTruth;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A reasoning model and tool calls against the simulated server, held against its recorded truth: the client's first
 * answer token is the server's first answer chunk, its reasoning count the server's, its tool calls the server's.
 * One user at a time and no preflight, so the n-th record and the n-th truth are the same request.
 */
@Isolated("holds the first answer token to within milliseconds of the server's send: a test beside it takes the cores")
class ReasoningEndToEndTest {

    private static final long MS = 1_000_000;
    private static final int REQUESTS = 20;
    private static final int REASONING = 12;
    private static final int OUTPUT = 30;

    @Test
    void should_measure_ttfo_and_reasoning_tokens_as_the_server_sent_them() throws Exception {
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(20), Duration.ofMillis(4))
                        .withReasoningTokens(REASONING)))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(32)
                            .outputTokens(OUTPUT)
                            .build())
                    .load(Load.concurrency(1).requests(REQUESTS))
                    .objectives(List.of(
                            SloSpec.of(Metric.REASONING_TOKENS).max().atMost(REASONING),
                            SloSpec.of(Metric.TTFO).max().atMost(Duration.ofSeconds(5))))
                    .preflight(false)
                    .run();
            List<RequestTruth> truths = server.awaitGroundTruth(REQUESTS, Duration.ofSeconds(10));

            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(REQUESTS);
            List<Long> answerDelays = new ArrayList<>();
            List<Long> reasoningSpans = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                RequestRecord record = result.records().get(i);
                RequestTruth truth = truths.get(i);
                StreamPhases phases = record.streamPhases();
                assertThat(truth.reasoningTokens()).isEqualTo(REASONING);
                assertThat(phases.reasoningTokens()).isEqualTo(truth.reasoningTokens());
                assertThat(phases.reasoningTokenSource()).isEqualTo(TokenCountSource.CONTINUOUS_USAGE);
                assertThat(phases.reasoningEvents()).isEqualTo(REASONING);
                assertThat(phases.answerEvents()).isEqualTo(OUTPUT - REASONING);
                assertThat(record.firstTokenNanos())
                        .as("TTFT stays the first token of any kind")
                        .isEqualTo(phases.firstReasoningNanos());
                long answerSent = truth.firstAnswerSentNanos().orElseThrow();
                long answerIntended = truth.chunks().get(REASONING).intendedNanos();
                assertThat(phases.firstAnswerNanos())
                        .as("request %d's first answer token against the model's intended time", i)
                        .isGreaterThanOrEqualTo(answerIntended);
                answerDelays.add(Math.abs(phases.firstAnswerNanos() - answerSent));
                reasoningSpans.add(record.ttfoNanos() - record.ttftNanos());
            }
            answerDelays.sort(null);
            System.out.printf(
                    Locale.ROOT,
                    "first answer token, client vs the server's send: median %.3f ms, max %.3f ms;"
                            + " TTFT p50 %.2f ms, TTFO p50 %.2f ms, answer TPOT p50 %.2f ms%n",
                    answerDelays.get(REQUESTS / 2) / 1e6,
                    answerDelays.get(REQUESTS - 1) / 1e6,
                    result.summary(Metric.TTFT).percentile(50) / 1e6,
                    result.summary(Metric.TTFO).percentile(50) / 1e6,
                    result.summary(Metric.ANSWER_TPOT).percentile(50) / 1e6);
            assertThat(answerDelays.get(REQUESTS / 2)).isLessThan(5 * MS);
            // 12 reasoning tokens at 4 ms: the answer starts 48 ms after the first token, as the model meant it (a
            // cold server's first request may send late and in a burst, so the median).
            reasoningSpans.sort(null);
            assertThat(reasoningSpans.get(REQUESTS / 2)).isBetween(43 * MS, 60 * MS);
            assertThat(result.summary(Metric.REASONING_TOKENS).count()).isEqualTo(REQUESTS);
            assertThat(result.summary(Metric.REASONING_TOKENS).mean()).isEqualTo(REASONING);
            assertThat(result.verdicts()).extracting(v -> v.verdict()).containsOnly(Verdict.MET);
            // The HTML metrics table shows the reasoning metrics once something reasoned.
            assertThat(dev.goodput.core.report.HtmlReport.format(result, "reasoning"))
                    .contains("<td>" + Metric.TTFO.displayName() + "</td>")
                    .contains("<td>" + Metric.REASONING_TOKENS.displayName() + "</td>");
        }
    }

    @Test
    void should_count_the_streamed_tool_calls_a_workload_asked_for() throws Exception {
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(10), Duration.ofMillis(2))
                        .withReasoningTokens(4)))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    // tag::tool-workload[]
                    .workload(RandomWorkload.builder()
                            .inputTokens(LengthDistribution.fixed(16))
                            .outputTokens(LengthDistribution.fixed(10))
                            .shape(RequestShape.DEFAULT.withTools(List.of(RequestShape.LOOKUP_TOOL)))
                            .seed(3)
                            .build())
                    // end::tool-workload[]
                    .load(Load.concurrency(1).requests(5))
                    .preflight(false)
                    .run();
            List<RequestTruth> truths = server.awaitGroundTruth(5, Duration.ofSeconds(10));

            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(5);
            for (int i = 0; i < 5; i++) {
                RequestRecord record = result.records().get(i);
                RequestTruth truth = truths.get(i);
                assertThat(truth.toolCalls()).isEqualTo(1);
                assertThat(record.streamPhases().toolCalls()).isEqualTo(truth.toolCalls());
                assertThat(record.streamPhases().reasoningTokens()).isEqualTo(truth.reasoningTokens());
                assertThat(record.streamPhases().firstAnswerNanos())
                        .as("the tool call's first delta is the first answer token")
                        .isGreaterThanOrEqualTo(truth.chunks().get(4).intendedNanos());
                assertThat(record.outputTokens()).isEqualTo(10);
            }
        }
    }
}
