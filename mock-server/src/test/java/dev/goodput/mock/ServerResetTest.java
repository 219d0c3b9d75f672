package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A reset simulated server serves the same requests exactly as it did after its start")
class ServerResetTest {

    private static final Pattern COUNTER = Pattern.compile("^(vllm:[a-z_]+_total|goodput_mock:[a-z_]+_total)"
            + "\\{[^}]*?(?:finished_reason=\"([a-z]+)\"[^}]*)?\\} ([0-9.eE+-]+)$");

    private MockServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Three sequential requests of 400-word prompts, the first prompt twice: a prefix-cache hit within a round. */
    private List<String> round() {
        List<String> answers = new ArrayList<>();
        for (String prompt : List.of(prompt("alpha"), prompt("beta"), prompt("alpha"))) {
            HttpResponse<String> response = TestHttp.post(
                    server,
                    "/v1/completions",
                    "{\"model\":\"m\",\"prompt\":\"" + prompt + "\",\"max_tokens\":4,\"ignore_eos\":true}");
            assertThat(response.statusCode()).isEqualTo(200);
            answers.add(response.body().replaceAll("\"(id|created)\":(\"[^\"]*\"|[0-9]+)", ""));
        }
        return answers;
    }

    private static String prompt(String word) {
        return IntStream.range(0, 400).mapToObj(i -> word + i).collect(Collectors.joining(" "));
    }

    /** The counters of {@code /metrics}, by name (and finish reason). */
    private Map<String, Double> counters() {
        Map<String, Double> counters = new TreeMap<>();
        for (String line : TestHttp.get(server, "/metrics").body().split("\n")) {
            Matcher sample = COUNTER.matcher(line);
            if (sample.matches()) {
                String name = sample.group(1) + (sample.group(2) == null ? "" : "/" + sample.group(2));
                counters.merge(name, Double.parseDouble(sample.group(3)), Double::sum);
            }
        }
        return counters;
    }

    /** Each finished request's first-token time as the model intended it, from its arrival, in nanoseconds. */
    private List<Long> intendedTimesToFirstToken() {
        return server.groundTruth().stream()
                .map(truth -> truth.chunks().get(0).intendedNanos() - truth.arrivalNanos())
                .collect(Collectors.toList());
    }

    private void startBatchingServer() {
        server = MockServer.start(MockServerConfig.builder()
                .modelName("m")
                .performanceModel(PerformanceModel.preset("tiny-test"))
                .build());
    }

    @Test
    @DisplayName("without a reset a repeated round finds its prompts cached; after one, caches, counters,"
            + " ground truth and the model's timings are those of the first round")
    void a_reset_server_repeats_its_first_round() throws Exception {
        startBatchingServer();
        List<String> firstAnswers = round();
        Map<String, Double> firstCounters = counters();
        List<Long> firstTtfts = intendedTimesToFirstToken();
        assertThat(firstCounters.get("vllm:prefix_cache_hits_total")).isPositive(); // the repeated prompt
        assertThat(server.groundTruth()).hasSize(3);

        round();
        // The case a reset is for: the same prompts again meet the first round's cache.
        assertThat(counters().get("vllm:prefix_cache_hits_total") - firstCounters.get("vllm:prefix_cache_hits_total"))
                .isGreaterThan(firstCounters.get("vllm:prefix_cache_hits_total"));
        List<Long> warmTtfts = intendedTimesToFirstToken().subList(3, 6);
        assertThat(warmTtfts.get(0)).isLessThan(firstTtfts.get(0));

        server.reset(Duration.ofSeconds(10));
        assertThat(server.groundTruth()).isEmpty();
        assertThat(counters())
                .allSatisfy((name, value) -> assertThat(value).as(name).isZero());

        assertThat(round()).isEqualTo(firstAnswers);
        assertThat(counters()).isEqualTo(firstCounters);
        assertThat(intendedTimesToFirstToken()).isEqualTo(firstTtfts);
    }

    @Test
    @DisplayName("POST /debug/reset resets a server the test cannot reach in its own JVM")
    void the_reset_endpoint_resets_the_server() throws Exception {
        startBatchingServer();
        Map<String, Double> firstCounters;
        round();
        firstCounters = counters();

        HttpResponse<String> reset = TestHttp.post(server, "/debug/reset", "");
        assertThat(reset.statusCode()).isEqualTo(200);
        assertThat(reset.body()).isEqualTo("{\"reset\":true}");
        assertThat(TestHttp.get(server, "/debug/requests").body()).contains("\"requests\":[]");

        round();
        assertThat(counters()).isEqualTo(firstCounters);
        assertThat(TestHttp.get(server, "/debug/reset").statusCode()).isEqualTo(405);
    }

    @Test
    @DisplayName("a reset waits for the requests in flight and says so when they outlast its timeout")
    void a_reset_does_not_cut_into_a_request_in_flight() throws Exception {
        server = MockServer.start(MockServerConfig.builder()
                .modelName("m")
                .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofSeconds(30)))
                .build());
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        CompletableFuture<HttpResponse<String>> slow = client.sendAsync(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"model\":\"m\",\"prompt\":\"a\",\"max_tokens\":3,\"ignore_eos\":true}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        // The request is in flight once the engine holds it; it then needs 60 s to finish.
        for (int wait = 0; wait < 10_000 && !engineHoldsARequest(); wait++) {
            Thread.sleep(1);
        }
        assertThat(engineHoldsARequest()).isTrue();

        assertThatThrownBy(() -> server.reset(Duration.ofMillis(50)))
                .isInstanceOf(TimeoutException.class)
                .hasMessage("the simulated server was still serving 1 request(s) after PT0.05S; reset it when no"
                        + " load is running");
        assertThat(slow).isNotDone();
        slow.cancel(true);
    }

    @Test
    @DisplayName("a stream its client abandoned does not hold up a reset")
    void an_abandoned_stream_does_not_hold_up_a_reset() throws Exception {
        server = MockServer.start(MockServerConfig.builder()
                .modelName("m")
                .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofSeconds(30)))
                .build());
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            String body = "{\"model\":\"m\",\"prompt\":\"a\",\"max_tokens\":3,\"ignore_eos\":true,\"stream\":true}";
            socket.getOutputStream()
                    .write(("POST /v1/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                                    + "content-length: " + body.length() + "\r\n\r\n" + body)
                            .getBytes(StandardCharsets.UTF_8));
            // Read until the first token's event: the stream is then in flight for another 60 s.
            StringBuilder seen = new StringBuilder();
            InputStream in = socket.getInputStream();
            while (!seen.toString().contains("\"text\"")) {
                int b = in.read();
                assertThat(b)
                        .as("the stream ended before its first token: " + seen)
                        .isNotNegative();
                seen.append((char) b);
            }
        }

        server.reset(Duration.ofSeconds(10));

        assertThat(server.groundTruth()).isEmpty();
    }

    private boolean engineHoldsARequest() {
        return TestHttp.get(server, "/metrics")
                .body()
                .contains("vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 1.0");
    }
}
