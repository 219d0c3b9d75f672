package dev.goodput.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;

import dev.goodput.core.result.RunResult;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.RequestTruth;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

/**
 * The preflight of a gate: a server that does not answer, or does not serve the model, fails the test before any
 * load with what was tried and what came back; {@code goodput.preflight=off} sends nothing but the load.
 */
class PreflightGateTest {

    @TempDir
    Path reports;

    private Events execute(Class<?> testCase, Map<String, String> parameters) {
        var request = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn");
        parameters.forEach(request::configurationParameter);
        return request.selectors(selectClass(testCase)).execute().testEvents();
    }

    @GoodputTest
    static class NothingListens {
        @org.junit.jupiter.api.Test
        @ServerUrl(value = "http://127.0.0.1:9", model = "nobody")
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 2, requests = 10)
        void gate() {}
    }

    @Test
    void should_fail_a_gate_whose_server_does_not_answer_with_what_was_tried() {
        Events events = execute(NothingListens.class, Map.of());

        events.assertThatEvents().haveExactly(1, finishedWithFailure(instanceOf(AssertionFailedError.class)));
        assertThat(GoodputExtensionTest.failureMessages(events))
                .containsExactly(Map.entry(
                        "gate",
                        "NothingListens.gate(): preflight failed: GET http://127.0.0.1:9/v1/models: connection refused"
                                + " or unreachable (ConnectException)\n"
                                + "server: @ServerUrl(http://127.0.0.1:9)\n"
                                + "no load was sent (goodput.preflight=off skips this check)"));
    }

    @GoodputTest
    static class ApiAtTheRoot {
        @org.junit.jupiter.api.Test
        @ServerUrl(value = "http://127.0.0.1:9", model = "nobody", apiBasePath = "")
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 2, requests = 10)
        void gate() {}
    }

    @Test
    void should_look_for_the_api_where_the_base_path_says() {
        Events events = execute(ApiAtTheRoot.class, Map.of());

        assertThat(GoodputExtensionTest.failureMessages(events).get("gate"))
                .startsWith("ApiAtTheRoot.gate(): preflight failed: GET http://127.0.0.1:9/models: ");
    }

    @GoodputTest
    static class TenRequests {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 2, requests = 10)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_fail_a_gate_that_asks_for_a_model_the_server_does_not_serve_before_any_load() throws Exception {
        try (MockServer server =
                MockServer.start(MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("fixed")))) {
            Events events = execute(
                    TenRequests.class,
                    Map.of("goodput.server.url", server.baseUrl(), "goodput.server.model", "llama-70b"));

            assertThat(GoodputExtensionTest.failureMessages(events))
                    .containsExactly(Map.entry(
                            "gate",
                            "TenRequests.gate(): preflight failed: GET " + server.baseUrl() + "/v1/models: the server"
                                    + " does not serve the model `llama-70b`; it serves `goodput/mock-llama-3-8b`\n"
                                    + "server: configuration parameter goodput.server.url\n"
                                    + "no load was sent (goodput.preflight=off skips this check)"));
            assertThat(server.groundTruth())
                    .as("generation requests the server received")
                    .isEmpty();
        }
    }

    @Test
    void should_take_the_api_base_path_from_the_configuration() throws Exception {
        try (MockServer server =
                MockServer.start(MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("fixed")))) {
            Events events = execute(
                    TenRequests.class,
                    Map.of(
                            "goodput.server.url", server.baseUrl(),
                            "goodput.server.model", server.modelName(),
                            "goodput.server.api-base-path", "/gateway/v1"));

            // The preflight tolerates a missing model list (some servers have none); the streamed probe then fails.
            assertThat(GoodputExtensionTest.failureMessages(events).get("gate"))
                    .startsWith("TenRequests.gate(): preflight failed: POST " + server.baseUrl()
                            + "/gateway/v1/chat/completions: HTTP 404: Not Found: /gateway/v1/chat/completions");
        }
    }

    @Test
    void should_send_one_small_request_before_the_load_and_none_when_the_preflight_is_off() throws Exception {
        try (MockServer server =
                MockServer.start(MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("fixed")))) {
            Map<String, String> atServer =
                    Map.of("goodput.server.url", server.baseUrl(), "goodput.server.model", server.modelName());

            execute(TenRequests.class, atServer).assertStatistics(stats -> stats.succeeded(1));

            assertThat(server.awaitGroundTruth(11, Duration.ofSeconds(10)))
                    .hasSize(11)
                    .first()
                    .extracting(RequestTruth::maxTokens)
                    .isEqualTo(2);
            assertThat(TenRequests.captured.accounting().scheduled()).isEqualTo(10);
            assertThat(TenRequests.captured.spec().preflight()).isTrue();

            Map<String, String> off = new java.util.HashMap<>(atServer);
            off.put("goodput.preflight", "off");
            execute(TenRequests.class, off).assertStatistics(stats -> stats.succeeded(1));

            assertThat(server.awaitGroundTruth(21, Duration.ofSeconds(10))).hasSize(21);
            assertThat(server.groundTruth()).as("the second gate's load alone").hasSize(21);
            assertThat(TenRequests.captured.spec().preflight()).isFalse();
        }
    }

    @Test
    void should_take_the_wait_for_a_loading_server_from_the_configuration_and_refuse_a_bad_one() throws Exception {
        try (MockServer server =
                MockServer.start(MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("fixed")))) {
            Map<String, String> atServer = new java.util.HashMap<>(
                    Map.of("goodput.server.url", server.baseUrl(), "goodput.server.model", server.modelName()));

            execute(TenRequests.class, atServer).assertStatistics(stats -> stats.succeeded(1));
            assertThat(TenRequests.captured.spec().preflightLoadingWait()).isEqualTo(Duration.ofMinutes(2));

            atServer.put("goodput.preflight.loading-wait-s", "7.5");
            execute(TenRequests.class, atServer).assertStatistics(stats -> stats.succeeded(1));
            assertThat(TenRequests.captured.spec().preflightLoadingWait()).isEqualTo(Duration.ofMillis(7_500));

            atServer.put("goodput.preflight.loading-wait-s", "soon");
            Events refused = execute(TenRequests.class, atServer);
            refused.assertStatistics(stats -> stats.failed(1));
            assertThat(refused.failed()
                            .list()
                            .get(0)
                            .getPayload(org.junit.platform.engine.TestExecutionResult.class)
                            .orElseThrow()
                            .getThrowable()
                            .orElseThrow())
                    .hasMessage("configuration parameter goodput.preflight.loading-wait-s = 'soon' is not a number of"
                            + " seconds from 0 to 86400 (the default is 120; 0 does not wait)");
        }
    }
}
