package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("The mock server injects each fault on request and names it in the ground truth")
class FaultInjectionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STREAM_REQUEST =
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                    + "\"max_tokens\":8,\"stream\":true,\"ignore_eos\":true}";

    private MockServer server;

    private MockServer start(Faults faults) {
        server = MockServer.start(
                MockServerConfig.builder()
                        .modelName("m")
                        .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1)))
                        .faults(faults)
                        .build(),
                new ScriptedEngine(100, 1, 2));
        return server;
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private RequestTruth onlyTruth() throws Exception {
        List<RequestTruth> truth = server.awaitGroundTruth(1, Duration.ofSeconds(10));
        assertThat(truth).hasSize(1);
        return truth.get(0);
    }

    private static List<String> dataLines(String body) {
        return Arrays.stream(body.split("\n\n"))
                .filter(event -> event.startsWith("data: "))
                .map(event -> event.substring("data: ".length()))
                .collect(Collectors.toList());
    }

    private static boolean parses(String json) {
        try {
            JSON.readTree(json);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    @ParameterizedTest(name = "{0} answers {1} before streaming")
    @CsvSource({"HTTP_429, 429, true", "HTTP_500, 500, false", "HTTP_503, 503, true"})
    void http_faults_answer_before_streaming(Fault fault, int status, boolean retryAfter) throws Exception {
        start(Faults.none().withRate(fault, 1.0).withRetryAfter(Duration.ofSeconds(2)));

        HttpResponse<String> response = TestHttp.post(server, "/v1/chat/completions", STREAM_REQUEST);

        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(JSON.readTree(response.body()).get("error").get("code").asInt())
                .isEqualTo(status);
        assertThat(response.headers().firstValue("retry-after"))
                .isEqualTo(retryAfter ? java.util.Optional.of("2") : java.util.Optional.empty());
        RequestTruth truth = onlyTruth();
        assertThat(truth.fault()).isEqualTo(fault);
        assertThat(truth.status()).isEqualTo(status);
        assertThat(truth.chunks()).isEmpty();
    }

    @Test
    @DisplayName("a stream error is an in-band error event followed by [DONE], after some tokens")
    void stream_error_is_in_band() throws Exception {
        start(Faults.none().withRate(Fault.STREAM_ERROR, 1.0));

        HttpResponse<String> response = TestHttp.post(server, "/v1/chat/completions", STREAM_REQUEST);

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> data = dataLines(response.body());
        assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
        String error = data.get(data.size() - 2);
        assertThat(JSON.readTree(error).get("error").get("code").asInt()).isEqualTo(500);
        RequestTruth truth = onlyTruth();
        assertThat(truth.fault()).isEqualTo(Fault.STREAM_ERROR);
        assertThat(truth.finishReason()).isEqualTo("error");
        assertThat(truth.completionTokens()).isBetween(1, 4);
        assertThat(data).hasSize(1 + truth.completionTokens() + 2); // role, tokens, error, [DONE]
    }

    @Test
    @DisplayName("a dropped connection ends the stream without its terminating chunk")
    void dropped_connection_breaks_the_stream() throws Exception {
        start(Faults.none().withRate(Fault.DROPPED_CONNECTION, 1.0));

        assertThatThrownBy(() -> TestHttp.post(server, "/v1/chat/completions", STREAM_REQUEST))
                .isInstanceOf(UncheckedIOException.class);
        RequestTruth truth = onlyTruth();
        assertThat(truth.fault()).isEqualTo(Fault.DROPPED_CONNECTION);
        assertThat(truth.finishReason()).isEqualTo("abort");
        assertThat(truth.completionTokens()).isBetween(1, 4);
    }

    @Test
    @DisplayName("a stall holds the stream for the stall duration, then it completes")
    void stall_pauses_the_stream() throws Exception {
        start(Faults.none().withRate(Fault.STALL, 1.0).withStallDuration(Duration.ofMillis(300)));

        HttpResponse<String> response = TestHttp.post(server, "/v1/chat/completions", STREAM_REQUEST);

        assertThat(dataLines(response.body())).endsWith("[DONE]");
        RequestTruth truth = onlyTruth();
        assertThat(truth.fault()).isEqualTo(Fault.STALL);
        assertThat(truth.completionTokens()).isEqualTo(8);
        long maxLateMillis =
                truth.chunks().stream().mapToLong(ChunkTiming::lateNanos).max().orElseThrow() / 1_000_000;
        assertThat(maxLateMillis).isGreaterThanOrEqualTo(250);
    }

    @Test
    @DisplayName("a malformed chunk is one unparseable data line in an otherwise complete stream")
    void malformed_chunk_is_unparseable() throws Exception {
        start(Faults.none().withRate(Fault.MALFORMED_CHUNK, 1.0));

        HttpResponse<String> response = TestHttp.post(server, "/v1/chat/completions", STREAM_REQUEST);

        List<String> data = dataLines(response.body());
        assertThat(data).endsWith("[DONE]");
        assertThat(data.stream().filter(line -> !line.equals("[DONE]") && !parses(line)))
                .hasSize(1);
        assertThat(onlyTruth().fault()).isEqualTo(Fault.MALFORMED_CHUNK);
    }

    @Test
    @DisplayName("a missing [DONE] leaves a complete HTTP response without the terminator event")
    void missing_done_omits_the_terminator() throws Exception {
        start(Faults.none().withRate(Fault.MISSING_DONE, 1.0));

        HttpResponse<String> response = TestHttp.post(server, "/v1/chat/completions", STREAM_REQUEST);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).doesNotContain("[DONE]").contains("\"finish_reason\":\"length\"");
        assertThat(onlyTruth().fault()).isEqualTo(Fault.MISSING_DONE);
    }

    @Test
    @DisplayName("the same seed gives the same faults for the same request order, another seed others")
    void faults_are_reproducible_from_the_seed() throws Exception {
        Faults faults = Faults.none()
                .withRate(Fault.HTTP_429, 0.25)
                .withRate(Fault.HTTP_500, 0.25)
                .withRate(Fault.HTTP_503, 0.25)
                .withSeed(42);

        List<Fault> first = faultSequence(faults);
        List<Fault> second = faultSequence(faults);
        List<Fault> otherSeed = faultSequence(faults.withSeed(43));

        assertThat(first).isEqualTo(second).isNotEqualTo(otherSeed);
        assertThat(first).contains(Fault.NONE, Fault.HTTP_429, Fault.HTTP_500, Fault.HTTP_503);
    }

    private List<Fault> faultSequence(Faults faults) throws Exception {
        start(faults);
        for (int i = 0; i < 24; i++) {
            TestHttp.post(server, "/v1/completions", "{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":1}");
        }
        List<Fault> sequence = new ArrayList<>();
        server.awaitGroundTruth(24, Duration.ofSeconds(10)).forEach(truth -> sequence.add(truth.fault()));
        server.close();
        server = null;
        return sequence;
    }

    @Test
    @DisplayName("fault rates are validated, naming the fault and the value")
    void rates_are_validated() {
        assertThatThrownBy(() -> Faults.none().withRate(Fault.HTTP_500, 1.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("http-500")
                .hasMessageContaining("1.5");
        assertThatThrownBy(() -> Faults.none().withRate(Fault.HTTP_500, 0.6).withRate(Fault.STALL, 0.6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 1");
    }
}
