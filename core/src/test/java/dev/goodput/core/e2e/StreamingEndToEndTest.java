package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.ScriptedSseServer;
import dev.goodput.core.testing.ScriptedSseServer.Script;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Runs the real client (java.net.http, real time) against a scripted streaming server on loopback. Timing
 * assertions are lower bounds or generous upper bounds, because these machines are shared and noisy.
 *
 * <p>The runs turn the preflight off: the scripted server numbers every request it receives, and some are meant
 * to fail.
 */
class StreamingEndToEndTest {

    private static final long MS = 1_000_000;

    @Test
    void should_measure_an_open_loop_run_and_account_for_every_request() throws Exception {
        try (ScriptedSseServer server = new ScriptedSseServer(n -> switch (n % 10) {
            case 3 -> new Script(503, 0, 0, 0, false);
            case 7 -> new Script(200, 20, 5, 6, true);
            default -> Script.stream(30, 5, 8);
        })) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "scripted"))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(16)
                            .outputTokens(8)
                            .build())
                    .load(Load.poisson(40).seed(3).requests(40).warmupRequests(5))
                    .objectives(SloSpec.of(Metric.TTFT).percentile(50).atMost(Duration.ofSeconds(5)))
                    .preflight(false)
                    .run();

            assertThat(result.accounting().scheduled()).isEqualTo(40);
            assertThat(result.accounting().isBalanced()).isTrue();
            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(32);
            assertThat(result.accounting().count(Outcome.FAILED)).isEqualTo(8);
            assertThat(result.records())
                    .filteredOn(r -> r.httpStatus() == 503)
                    .allSatisfy(r ->
                            assertThat(r.errorDetail()).startsWith("HTTP 503: ").contains("scripted failure"));
            assertThat(result.records())
                    .filteredOn(r -> r.outcome() == Outcome.FAILED && r.httpStatus() == 200)
                    .allSatisfy(r -> assertThat(r.errorDetail()).contains("scripted error"));
            for (RequestRecord record : result.records()) {
                if (record.isSuccess()) {
                    assertThat(record.ttftFromSendNanos()).isGreaterThanOrEqualTo(30 * MS);
                    assertThat(record.ttftNanos()).isGreaterThanOrEqualTo(record.ttftFromSendNanos());
                    assertThat(record.e2elNanos()).isGreaterThanOrEqualTo(30 * MS + 7 * 5 * MS);
                    assertThat(record.outputTokens()).isEqualTo(8);
                    assertThat(record.outputTokenSource()).isEqualTo(TokenCountSource.USAGE);
                    assertThat(record.serverPromptTokens()).isEqualTo(12);
                }
            }
            assertThat(result.summary(Metric.TTFT).count())
                    .isEqualTo(result.accounting().measured(Outcome.SUCCESS));
            assertThat(result.summary(Metric.ICL).count())
                    .isEqualTo(7 * result.accounting().measured(Outcome.SUCCESS));
            assertThat(result.verdicts()).hasSize(1);
            assertThat(server.received()).hasSize(40);
            assertThat(server.received().get(0).path()).isEqualTo("/v1/chat/completions");
            assertThat(server.received().get(0).body())
                    .contains("\"stream\":true")
                    .contains("\"include_usage\":true")
                    .contains("\"continuous_usage_stats\":true")
                    .contains("\"max_tokens\":8")
                    .contains("\"ignore_eos\":true");
        }
    }

    @Test
    void should_send_to_the_api_base_path_it_is_given() throws Exception {
        try (ScriptedSseServer server = new ScriptedSseServer(n -> Script.stream(10, 2, 4))) {
            for (String basePath : new String[] {"", "/openai/v1/"}) {
                RunResult result = Goodput.newRun(
                                ServerEndpoint.of(server.baseUrl(), "scripted").withApiBasePath(basePath))
                        .workload(WorkloadSpec.synthetic()
                                .inputTokens(8)
                                .outputTokens(4)
                                .build())
                        .load(Load.concurrency(1).requests(2))
                        .preflight(false)
                        .run();

                assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(2);
                assertThat(result.spec().server().describe())
                        .containsEntry("api_base_path", basePath.replaceAll("/$", ""));
            }
            assertThat(server.received())
                    .extracting(ScriptedSseServer.Received::path)
                    .containsExactly(
                            "/chat/completions",
                            "/chat/completions",
                            "/openai/v1/chat/completions",
                            "/openai/v1/chat/completions");
        }
    }

    @Test
    void should_run_a_closed_loop_and_never_have_more_requests_in_flight_than_users() throws Exception {
        try (ScriptedSseServer server = new ScriptedSseServer(n -> Script.stream(10, 2, 4))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl() + "/v1", "scripted")
                            .withContinuousUsageStats(false))
                    .workload(WorkloadSpec.synthetic()
                            .completions()
                            .inputTokens(8)
                            .outputTokens(4)
                            .build())
                    .load(Load.concurrency(3).requests(24))
                    .preflight(false)
                    .run();

            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(24);
            assertThat(result.load().peakInFlight()).isLessThanOrEqualTo(3);
            assertThat(result.load().offeredRate()).isNaN();
            assertThat(server.received()).allSatisfy(received -> {
                assertThat(received.path()).isEqualTo("/v1/completions");
                assertThat(received.body()).doesNotContain("continuous_usage_stats");
            });
        }
    }

    @Test
    void should_send_the_api_key_as_a_bearer_token_and_never_record_it() throws Exception {
        String secret = "sk-test-very-secret-0123456789";
        try (ScriptedSseServer server = new ScriptedSseServer(n -> Script.stream(1, 1, 2))) {
            ServerEndpoint endpoint = ServerEndpoint.of(server.baseUrl(), "scripted")
                    .withApiKeyFromEnvironment("GOODPUT_TEST_KEY")
                    .withEnvironment(Map.of("GOODPUT_TEST_KEY", secret)::get);
            RunResult result = Goodput.newRun(endpoint)
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(4)
                            .outputTokens(2)
                            .build())
                    .load(Load.constantRate(50).requests(3))
                    .preflight(false)
                    .run();

            assertThat(server.received())
                    .allSatisfy(r -> assertThat(r.authorization()).isEqualTo("Bearer " + secret));
            assertThat(result.toString()).doesNotContain(secret);
            assertThat(endpoint.describe().toString()).doesNotContain(secret).contains("GOODPUT_TEST_KEY");
        }
    }

    @Test
    void should_fail_every_request_with_a_reason_when_nothing_listens() {
        RunResult result = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:9", "nobody"))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(4).outputTokens(2).build())
                .load(Load.constantRate(100).requests(5))
                .preflight(false)
                .run();

        assertThat(result.accounting().count(Outcome.FAILED)).isEqualTo(5);
        assertThat(result.records())
                .allSatisfy(r -> assertThat(r.errorDetail()).startsWith("connection refused or unreachable"));
        assertThat(result.value(Metric.ERROR_RATE)).isEqualTo(1.0);
    }
}
