package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.mock.internal.http.OutputWords;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The mock server streams a reasoning phase and tool calls as vLLM does")
class ReasoningAndToolCallsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOOLS = ",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"lookup\","
            + "\"parameters\":{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}}}}}]";

    private MockServer server;

    private void start(int naturalLength, int tokensPerChunk, int reasoningTokens) {
        server = MockServer.start(
                MockServerConfig.builder()
                        .modelName("test/model")
                        .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1))
                                .withReasoningTokens(reasoningTokens))
                        .build(),
                new ScriptedEngine(naturalLength, tokensPerChunk, 1));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** The deltas of every choice chunk after the role chunk, and the finish reasons, in order. */
    private static List<JsonNode> choices(HttpResponse<String> response) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<JsonNode> choices = new ArrayList<>();
        for (String event : response.body().split("\n\n")) {
            String data = event.substring("data: ".length());
            if (!data.equals("[DONE]")) {
                JsonNode chunk = JSON.readTree(data);
                if (!chunk.get("choices").isEmpty()
                        && !chunk.at("/choices/0/delta").has("role")) {
                    choices.add(chunk.at("/choices/0"));
                }
            }
        }
        return choices;
    }

    private HttpResponse<String> chat(String extra) {
        return TestHttp.post(
                server,
                "/v1/chat/completions",
                "{\"model\":\"test/model\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"seed\":5,"
                        + "\"stream\":true" + extra + "}");
    }

    @Test
    @DisplayName("the first reasoningTokens tokens go out as reasoning_content, a straddling chunk carries both")
    void reasoning_then_content() throws Exception {
        start(100, 2, 3);
        List<JsonNode> choices = choices(chat(",\"max_tokens\":6,\"ignore_eos\":true"));

        assertThat(choices).hasSize(3);
        assertThat(choices.get(0).get("delta").toString())
                .isEqualTo("{\"reasoning_content\":\"" + OutputWords.text(5, 0, 2) + "\"}");
        assertThat(choices.get(1).get("delta").toString())
                .isEqualTo("{\"reasoning_content\":\"" + OutputWords.text(5, 2, 3) + "\",\"content\":\""
                        + OutputWords.text(5, 3, 4) + "\"}");
        assertThat(choices.get(2).get("delta").toString())
                .isEqualTo("{\"content\":\"" + OutputWords.text(5, 4, 6) + "\"}");
        assertThat(choices.get(2).get("finish_reason").asText()).isEqualTo("length");
        RequestTruth truth = server.awaitGroundTruth(1, Duration.ofSeconds(5)).get(0);
        assertThat(truth.reasoningTokens()).isEqualTo(3);
        assertThat(truth.firstAnswerSentNanos()).hasValue(truth.chunks().get(1).sentNanos());
    }

    @Test
    @DisplayName("enable_thinking false in chat_template_kwargs turns the reasoning off for that request")
    void thinking_switched_off() throws Exception {
        start(100, 1, 3);
        List<JsonNode> choices =
                choices(chat(",\"max_tokens\":2,\"chat_template_kwargs\":{\"enable_thinking\":false}"));

        assertThat(choices)
                .allSatisfy(choice ->
                        assertThat(choice.at("/delta/content").isTextual()).isTrue());
        assertThat(server.awaitGroundTruth(1, Duration.ofSeconds(5)).get(0).reasoningTokens())
                .isZero();
    }

    @Test
    @DisplayName("with tools the answer is one streamed tool call: name first, argument fragments, closed JSON")
    void tool_call_after_reasoning() throws Exception {
        start(4, 1, 1);
        List<JsonNode> choices = choices(chat(",\"max_tokens\":10" + TOOLS));

        assertThat(choices).hasSize(5);
        assertThat(choices.get(0).at("/delta/reasoning_content").asText()).isEqualTo(OutputWords.text(5, 0, 1));
        JsonNode opening = choices.get(1).at("/delta/tool_calls/0");
        assertThat(opening.get("index").asInt()).isZero();
        assertThat(opening.get("id").asText()).startsWith("call_");
        assertThat(opening.get("type").asText()).isEqualTo("function");
        assertThat(opening.at("/function/name").asText()).isEqualTo("lookup");
        StringBuilder arguments = new StringBuilder();
        for (JsonNode choice : choices.subList(1, 5)) {
            arguments.append(choice.at("/delta/tool_calls/0/function/arguments").asText());
        }
        assertThat(choices.get(2).at("/delta/tool_calls/0").has("id")).isFalse();
        assertThat(JSON.readTree(arguments.toString()).get("query").asText()).isEqualTo(OutputWords.text(5, 1, 4));
        assertThat(choices.get(4).get("finish_reason").asText()).isEqualTo("tool_calls");
        RequestTruth truth = server.awaitGroundTruth(1, Duration.ofSeconds(5)).get(0);
        assertThat(truth.toolCalls()).isEqualTo(1);
        assertThat(truth.finishReason()).isEqualTo("tool_calls");
    }

    @Test
    @DisplayName("tool_choice none answers in text, and a tool without a function name is refused")
    void tool_choice_none_and_a_bad_tool() throws Exception {
        start(100, 1, 0);
        assertThat(choices(chat(",\"max_tokens\":2,\"tool_choice\":\"none\"" + TOOLS)))
                .allSatisfy(choice ->
                        assertThat(choice.at("/delta/content").isTextual()).isTrue());

        HttpResponse<String> refused = chat(",\"max_tokens\":2,\"tools\":[{\"type\":\"function\"}]");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("tools[0] must be");
        assertThatThrownBy(() ->
                        PerformanceModel.fixed(Duration.ZERO, Duration.ZERO).withReasoningTokens(-1))
                .hasMessageContaining("reasoningTokens");
    }
}
