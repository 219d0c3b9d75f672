package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.goodput.core.Goodput;
import dev.goodput.core.PreflightException;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.sweep.Sweep;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.RequestTruth;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The preflight, before any load: the server answers, serves the model and streams one small request to its end;
 * otherwise the run throws with what was tried and what came back, and sends no load.
 */
class PreflightTest {

    private static final WorkloadSpec CHAT =
            WorkloadSpec.synthetic().inputTokens(8).outputTokens(4).build();
    private static final String VLLM_MODEL_NOT_FOUND = "{\"object\":\"error\",\"message\":\"The model `llama` does"
            + " not exist.\",\"type\":\"NotFoundError\",\"param\":null,\"code\":404}";
    private static final String STREAM = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there\"},\"finish_reason\":\"length\"}]}\n\n"
            + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":2}}\n\n"
            + "data: [DONE]\n\n";

    private static MockServer simulated() {
        return MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(1))));
    }

    @Test
    void should_fail_at_once_when_nothing_listens() {
        assertThatThrownBy(() -> Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:9", "nobody"))
                        .workload(CHAT)
                        .load(Load.constantRate(100).requests(5))
                        .run())
                .isInstanceOfSatisfying(PreflightException.class, e -> {
                    assertThat(e.request()).isEqualTo("GET http://127.0.0.1:9/v1/models");
                    assertThat(e.reason()).isEqualTo("connection refused or unreachable (ConnectException)");
                })
                .hasMessage("preflight failed: GET http://127.0.0.1:9/v1/models: connection refused or unreachable"
                        + " (ConnectException)");
    }

    @Test
    void should_name_the_models_the_simulated_server_serves_when_the_run_asks_for_another() {
        try (MockServer server = simulated()) {
            assertThatThrownBy(() -> Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "llama"))
                            .workload(CHAT)
                            .load(Load.constantRate(100).requests(5))
                            .run())
                    .isInstanceOf(PreflightException.class)
                    .hasMessage("preflight failed: GET " + server.baseUrl() + "/v1/models: the server does not serve"
                            + " the model `llama`; it serves `goodput/mock-llama-3-8b`");
            assertThat(server.groundTruth())
                    .as("generation requests the server received")
                    .isEmpty();
        }
    }

    @Test
    void should_give_the_servers_own_message_when_it_has_no_model_list_and_rejects_the_model() throws Exception {
        try (TinyServer server = new TinyServer(
                Map.of("POST /v1/chat/completions", new Reply(404, "application/json", VLLM_MODEL_NOT_FOUND)))) {
            assertThatThrownBy(() -> Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "llama"))
                            .workload(CHAT)
                            .load(Load.constantRate(100).requests(5))
                            .run())
                    .isInstanceOf(PreflightException.class)
                    .hasMessage("preflight failed: POST " + server.baseUrl() + "/v1/chat/completions: HTTP 404: The"
                            + " model `llama` does not exist. (type: NotFoundError, code: 404)");
            assertThat(server.received()).containsExactly("GET /v1/models", "POST /v1/chat/completions");
        }
    }

    @Test
    void should_fail_a_server_that_answers_with_json_instead_of_a_stream() throws Exception {
        String completion = "{\"id\":\"cmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"Hi there\"},\"finish_reason\":\"length\"}]}";
        try (TinyServer server = new TinyServer(Map.of(
                "GET /v1/models", new Reply(200, "application/json", "{\"object\":\"list\",\"data\":[{\"id\":\"m\"}]}"),
                "POST /v1/completions", new Reply(200, "application/json", completion)))) {
            assertThatThrownBy(() -> Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                            .workload(WorkloadSpec.synthetic()
                                    .completions()
                                    .inputTokens(8)
                                    .outputTokens(4)
                                    .build())
                            .load(Load.constantRate(100).requests(5))
                            .run())
                    .isInstanceOf(PreflightException.class)
                    .hasMessage("preflight failed: POST " + server.baseUrl() + "/v1/completions: the response was"
                            + " application/json, not an event stream (text/event-stream)");
            assertThat(server.received()).containsExactly("GET /v1/models", "POST /v1/completions");
        }
    }

    @Test
    void should_send_one_small_request_that_is_not_part_of_the_result_and_nothing_extra_when_off() throws Exception {
        try (MockServer server = simulated()) {
            ServerEndpoint endpoint = ServerEndpoint.of(server.baseUrl(), server.modelName());
            RunResult checked = Goodput.newRun(endpoint)
                    .workload(CHAT)
                    .load(Load.concurrency(2).requests(6))
                    .run();

            List<RequestTruth> truths = server.awaitGroundTruth(7, Duration.ofSeconds(10));
            assertThat(truths).hasSize(7);
            assertThat(truths.get(0).endpoint()).isEqualTo("/v1/chat/completions");
            assertThat(truths.get(0).maxTokens()).isEqualTo(2);
            assertThat(truths.subList(1, 7)).extracting(RequestTruth::maxTokens).containsOnly(4);
            assertThat(checked.records()).hasSize(6);
            assertThat(checked.accounting().scheduled()).isEqualTo(6);
            assertThat(checked.accounting().count(Outcome.SUCCESS)).isEqualTo(6);
            assertThat(checked.records()).extracting(r -> r.outputTokens()).containsOnly(4);

            RunResult unchecked = Goodput.newRun(endpoint)
                    .workload(CHAT)
                    .load(Load.concurrency(2).requests(6))
                    .preflight(false)
                    .run();

            assertThat(unchecked.accounting().count(Outcome.SUCCESS)).isEqualTo(6);
            assertThat(server.awaitGroundTruth(13, Duration.ofSeconds(10))).hasSize(13);
            assertThat(server.groundTruth()).as("the load alone, no preflight").hasSize(13);
        }
    }

    @Test
    void should_go_on_to_the_stream_when_the_server_has_no_model_list() throws Exception {
        try (TinyServer server =
                new TinyServer(Map.of("POST /v1/chat/completions", new Reply(200, "text/event-stream", STREAM)))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(8)
                            .outputTokens(2)
                            .build())
                    .load(Load.concurrency(1).requests(2))
                    .run();

            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(2);
            assertThat(server.received())
                    .containsExactly(
                            "GET /v1/models",
                            "POST /v1/chat/completions",
                            "POST /v1/chat/completions",
                            "POST /v1/chat/completions");
        }
    }

    @Test
    void should_accept_a_stream_that_ends_properly_although_its_two_tokens_show_no_text() throws Exception {
        String silent = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"},"
                + "\"finish_reason\":\"length\"}]}\n\n"
                + "data: [DONE]\n\n";
        try (TinyServer server = new TinyServer(
                Map.of("POST /v1/chat/completions", new Reply(200, "text/event-stream; charset=utf-8", silent)))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                    .workload(CHAT)
                    .load(Load.concurrency(1).requests(1))
                    .run();

            assertThat(server.received())
                    .containsExactly("GET /v1/models", "POST /v1/chat/completions", "POST /v1/chat/completions");
            assertThat(result.records().get(0).errorDetail())
                    .as("a measured request still needs text")
                    .isEqualTo("the stream ended with [DONE] without generating any text");
        }
    }

    @Test
    void should_send_the_key_and_never_put_it_in_the_message_when_the_server_echoes_it() throws Exception {
        String secret = "sk-preflight-test-0123456789abcdef";
        try (TinyServer server = new TinyServer(Map.of(
                "GET /v1/models",
                new Reply(
                        401,
                        "application/json",
                        "{\"error\":{\"message\":\"invalid key {authorization}\",\"code\":401}}")))) {
            ServerEndpoint endpoint = ServerEndpoint.of(server.baseUrl(), "m")
                    .withApiKeyFromEnvironment("GOODPUT_PREFLIGHT_KEY")
                    .withEnvironment(Map.of("GOODPUT_PREFLIGHT_KEY", secret)::get);

            assertThatThrownBy(() -> Goodput.newRun(endpoint)
                            .workload(CHAT)
                            .load(Load.concurrency(1).requests(2))
                            .run())
                    .isInstanceOf(PreflightException.class)
                    .hasMessage("preflight failed: GET " + server.baseUrl() + "/v1/models: HTTP 401: invalid key"
                            + " Bearer [redacted API key] (code: 401)");
            assertThat(server.authorizations()).containsExactly("Bearer " + secret);
        }
    }

    @Test
    void should_wait_for_a_server_still_loading_its_model_and_note_how_long_in_the_result() throws Exception {
        try (TinyServer server = new TinyServer(
                Map.of(
                        "GET /v1/models",
                        new Reply(200, "application/json", "{\"object\":\"list\",\"data\":[{\"id\":\"m\"}]}"),
                        "POST /v1/chat/completions",
                        new Reply(200, "text/event-stream", STREAM)),
                2)) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                    .workload(CHAT)
                    .load(Load.concurrency(1).requests(2))
                    .serverMetrics(dev.goodput.core.servermetrics.ScrapeSettings.OFF)
                    .run();

            // llama-server answers 503 on every path while it loads; the preflight asks again every half second.
            assertThat(server.received())
                    .startsWith(
                            "GET /v1/models",
                            "GET /v1/models",
                            "GET /v1/models",
                            "POST /v1/chat/completions",
                            "POST /v1/chat/completions");
            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(2);
            assertThat(result.notes())
                    .singleElement()
                    .asString()
                    .startsWith("the server answered 503 (still loading its model) until the preflight had waited ")
                    .endsWith(" s for it; the load started once it was ready");
        }
    }

    @Test
    void should_note_streams_that_name_another_model_than_the_one_asked_for() throws Exception {
        // llama-server serves whatever it has loaded, whatever the request asks for, and says so in every chunk.
        String tiny4 = STREAM.replace("data: {\"choices\"", "data: {\"model\":\"tiny4\",\"choices\"");
        try (TinyServer server =
                new TinyServer(Map.of("POST /v1/chat/completions", new Reply(200, "text/event-stream", tiny4)))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "llama"))
                    .workload(CHAT)
                    .load(Load.concurrency(2).requests(6))
                    .preflight(false)
                    .serverMetrics(dev.goodput.core.servermetrics.ScrapeSettings.OFF)
                    .run();

            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(6);
            assertThat(result.notes())
                    .containsExactly("6 of 6 streams that named their model named another than the `llama` asked"
                            + " for: `tiny4` (6); the server may serve whatever it has loaded (the preflight checks"
                            + " its model list)");
            assertThat(dev.goodput.core.report.ConsoleReport.format(result))
                    .contains("note: 6 of 6 streams that named their model named another than the `llama`");
        }
    }

    @Test
    void should_make_a_sweeps_preflight_once_before_its_first_run() {
        var base = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:9", "nobody"))
                .workload(CHAT)
                .load(Load.constantRate(1).duration(Duration.ofSeconds(1)))
                .build();

        assertThatThrownBy(() -> Sweep.run(Sweep.newSweep(base).rates(1, 2).build()))
                .isInstanceOf(PreflightException.class)
                .hasMessage("preflight failed: GET http://127.0.0.1:9/v1/models: connection refused or unreachable"
                        + " (ConnectException)");
    }

    /** What a {@link TinyServer} answers to one route; {@code {authorization}} in the body echoes the header. */
    record Reply(int status, String contentType, String body) {}

    /**
     * A loopback HTTP server with fixed answers by method and path, 404 {@code {"detail":"Not Found"}} for the rest
     * (as vLLM's FastAPI does); it remembers each request's route and {@code Authorization} header.
     */
    static final class TinyServer implements AutoCloseable {
        private final HttpServer server;
        private final List<String> received = new CopyOnWriteArrayList<>();
        private final List<String> authorizations = new CopyOnWriteArrayList<>();

        TinyServer(Map<String, Reply> routes) throws IOException {
            this(routes, 0);
        }

        /** A server that answers its first {@code loadingAnswers} requests as llama-server does while it loads. */
        TinyServer(Map<String, Reply> routes, int loadingAnswers) throws IOException {
            AtomicInteger loading = new AtomicInteger(loadingAnswers);
            Reply stillLoading = new Reply(
                    503,
                    "application/json",
                    "{\"error\":{\"code\":503,\"message\":\"Loading model\",\"type\":\"unavailable_error\"}}");
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext(
                    "/",
                    exchange -> answer(
                            exchange,
                            loading.getAndDecrement() > 0
                                    ? route -> stillLoading
                                    : route -> routes.getOrDefault(
                                            route, new Reply(404, "application/json", "{\"detail\":\"Not Found\"}"))));
            // No Prometheus metrics, and a scrape of them is not one of the requests this test is about.
            server.createContext("/metrics", exchange -> {
                try (exchange) {
                    exchange.sendResponseHeaders(404, -1);
                }
            });
            server.start();
        }

        String baseUrl() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        List<String> received() {
            return List.copyOf(received);
        }

        List<String> authorizations() {
            return List.copyOf(authorizations);
        }

        private void answer(HttpExchange exchange, java.util.function.Function<String, Reply> routes)
                throws IOException {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                String route = exchange.getRequestMethod() + " "
                        + exchange.getRequestURI().getPath();
                received.add(route);
                String authorization = exchange.getRequestHeaders().getFirst("Authorization");
                if (authorization != null) {
                    authorizations.add(authorization);
                }
                Reply reply = routes.apply(route);
                byte[] body = reply.body()
                        .replace("{authorization}", String.valueOf(authorization))
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", reply.contentType());
                exchange.sendResponseHeaders(reply.status(), body.length);
                exchange.getResponseBody().write(body);
            }
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
