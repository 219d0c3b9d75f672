package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("The mock server refuses bad requests with OpenAI-style errors and vLLM's statuses")
class ErrorResponsesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static MockServer server;

    @BeforeAll
    static void start() {
        server = MockServer.start(
                MockServerConfig.builder()
                        .modelName("m")
                        .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1))
                                .withMaxModelLen(32))
                        .build(),
                new ScriptedEngine(100, 1, 1));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static JsonNode error(HttpResponse<String> response, int status) throws Exception {
        assertThat(response.statusCode()).isEqualTo(status);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertThat(error.get("code").isInt()).isTrue();
        assertThat(error.get("code").asInt()).isEqualTo(status);
        assertThat(error.get("type").isTextual()).isTrue();
        assertThat(error.has("param")).isTrue();
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
        return error;
    }

    @ParameterizedTest(name = "{0} gives 400 mentioning \"{2}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "invalid JSON | {\"model\": | Invalid JSON",
                "a JSON array | [1,2] | must be a JSON object",
                "no model | {\"prompt\":\"hi\"} | 'model' is required",
                "no prompt | {\"model\":\"m\"} | 'prompt' is required",
                "n=2 | {\"model\":\"m\",\"prompt\":\"hi\",\"n\":2} | n=1",
                "max_tokens 0 | {\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":0} | at least 1",
                "stream_options without stream | {\"model\":\"m\",\"prompt\":\"hi\",\"stream_options\":{}} | stream=True",
                "a string max_tokens | {\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":\"9\"} | must be an integer",
            })
    void bad_completion_requests_are_400(String what, String body, String mention) throws Exception {
        JsonNode error = error(TestHttp.post(server, "/v1/completions", body), 400);

        assertThat(error.get("message").asText()).contains(mention);
        assertThat(error.get("type").asText()).isEqualTo("BadRequestError");
    }

    @Test
    @DisplayName("a chat without messages is 400")
    void chat_without_messages_is_400() throws Exception {
        JsonNode error = error(TestHttp.post(server, "/v1/chat/completions", "{\"model\":\"m\"}"), 400);

        assertThat(error.get("message").asText()).contains("'messages' is required");
    }

    @Test
    @DisplayName("an unknown model is 404 with vLLM's wording")
    void unknown_model_is_404() throws Exception {
        JsonNode error =
                error(TestHttp.post(server, "/v1/completions", "{\"model\":\"gpt-4\",\"prompt\":\"hi\"}"), 404);

        assertThat(error.get("message").asText()).isEqualTo("The model `gpt-4` does not exist.");
        assertThat(error.get("type").asText()).isEqualTo("NotFoundError");
    }

    @Test
    @DisplayName("prompt plus max_tokens beyond the context is 400 with vLLM's wording")
    void context_overflow_is_400() throws Exception {
        JsonNode error = error(
                TestHttp.post(
                        server, "/v1/completions", "{\"model\":\"m\",\"prompt\":\"a b c d e\",\"max_tokens\":30}"),
                400);

        assertThat(error.get("message").asText())
                .isEqualTo("This model's maximum context length is 32 tokens. However, you requested 35 tokens "
                        + "(5 in the messages, 30 in the completion). Please reduce the length of the messages or "
                        + "completion.");
    }

    @Test
    @DisplayName("a prompt alone at the context limit is 400")
    void prompt_at_the_limit_is_400() throws Exception {
        JsonNode error = error(
                TestHttp.post(server, "/v1/completions", "{\"model\":\"m\",\"prompt\":\"" + "w ".repeat(32) + "\"}"),
                400);

        assertThat(error.get("message").asText()).contains("your request has 32 input tokens");
    }

    @Test
    @DisplayName("a wrong method is 405 with Allow, an unknown path 404")
    void wrong_method_and_unknown_path() throws Exception {
        HttpResponse<String> wrongMethod = TestHttp.get(server, "/v1/chat/completions");
        error(wrongMethod, 405);
        assertThat(wrongMethod.headers().firstValue("allow")).hasValue("POST");

        error(TestHttp.get(server, "/v2/anything"), 404);
        HttpResponse<String> deleteHealth =
                TestHttp.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/health"))
                        .DELETE()
                        .build());
        error(deleteHealth, 405);
    }

    @Test
    @DisplayName("/health, /version and /v1/models answer like vLLM's")
    void info_endpoints() throws Exception {
        assertThat(TestHttp.get(server, "/health").statusCode()).isEqualTo(200);
        JsonNode version = JSON.readTree(TestHttp.get(server, "/version").body());
        // The build's version, or dev when the classes are not in a jar (as here): never a stale literal.
        String expected = Objects.requireNonNullElse(
                        MockServer.class.getPackage().getImplementationVersion(), "dev") + "-goodput-mock";
        assertThat(version.get("version").asText()).isEqualTo(expected);
        assertThat(version.get("performance_model").isObject()).isTrue();
        JsonNode models = JSON.readTree(TestHttp.get(server, "/v1/models").body());
        assertThat(models.get("object").asText()).isEqualTo("list");
        assertThat(models.get("data").get(0).get("id").asText()).isEqualTo("m");
        assertThat(models.get("data").get(0).get("max_model_len").asInt()).isEqualTo(32);
    }

    @Test
    @DisplayName("a refused generation request is in the ground truth with its status")
    void refused_requests_are_in_the_ground_truth() throws Exception {
        // The server is shared by this class's tests, and another test's stream may still be ending: wait for
        // records past the ones there were before until the refused request's is among them.
        int before = server.groundTruth().size();
        TestHttp.post(server, "/v1/chat/completions", "{\"model\":\"nope\",\"messages\":[]}");

        List<RequestTruth> truths = server.awaitGroundTruth(before + 1, Duration.ofSeconds(5));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (truths.stream().skip(before).noneMatch(truth -> truth.status() == 404) && System.nanoTime() < deadline) {
            Thread.sleep(10);
            truths = server.groundTruth();
        }
        assertThat(truths.subList(before, truths.size())).anySatisfy(truth -> {
            assertThat(truth.status()).isEqualTo(404);
            assertThat(truth.finishReason()).isEqualTo("error");
            assertThat(truth.endpoint()).isEqualTo("/v1/chat/completions");
        });
    }
}
