package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.errors.OpenAIException;
import com.openai.errors.RateLimitException;
import com.openai.errors.SseException;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The OpenAI SDK sees the mock's errors and faults as it would see vLLM's: typed exceptions, not successes. */
@DisplayName("The OpenAI SDK surfaces the mock server's errors and faults")
class ClientFaultVisibilityTest {

    private MockServer server;
    private OpenAIClient client;

    private void start(Faults faults) {
        server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1))
                        .withMaxModelLen(64))
                .withFaults(faults));
        client = OpenAIOkHttpClient.builder()
                .baseUrl(server.baseUrl() + "/v1")
                .apiKey("test")
                .maxRetries(0)
                .timeout(Duration.ofSeconds(30))
                .responseValidation(true)
                .build();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    private ChatCompletionCreateParams chat(String model, long maxTokens) {
        return ChatCompletionCreateParams.builder()
                .model(model)
                .addUserMessage("hi")
                .maxCompletionTokens(maxTokens)
                .putAdditionalBodyProperty("ignore_eos", JsonValue.from(true))
                .build();
    }

    private void drain(ChatCompletionCreateParams params) {
        try (StreamResponse<ChatCompletionChunk> stream =
                client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> {});
        }
    }

    @Test
    @DisplayName("an unknown model is a NotFoundException and a context overflow a BadRequestException")
    void refusals_are_typed() {
        start(Faults.none());

        assertThatThrownBy(() -> client.chat().completions().create(chat("other", 4)))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("does not exist");
        assertThatThrownBy(() -> client.chat().completions().create(chat(server.modelName(), 100)))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("maximum context length is 64 tokens");
    }

    @Test
    @DisplayName("a 429 fault is a RateLimitException")
    void rate_limit_fault_is_a_rate_limit_exception() {
        start(Faults.none().withRate(Fault.HTTP_429, 1.0).withRetryAfter(Duration.ofSeconds(1)));

        assertThatThrownBy(() -> drain(chat(server.modelName(), 8))).isInstanceOf(RateLimitException.class);
    }

    @Test
    @DisplayName("an in-band stream error is an SseException, as with vLLM")
    void stream_error_is_an_sse_exception() {
        start(Faults.none().withRate(Fault.STREAM_ERROR, 1.0));

        assertThatThrownBy(() -> drain(chat(server.modelName(), 8)))
                .isInstanceOf(SseException.class)
                .hasMessageContaining("Simulated engine failure");
    }

    @Test
    @DisplayName("a dropped connection and a malformed chunk fail the stream")
    void broken_streams_fail() {
        start(Faults.none().withRate(Fault.DROPPED_CONNECTION, 0.5).withRate(Fault.MALFORMED_CHUNK, 0.5));

        for (int i = 0; i < 4; i++) {
            assertThatThrownBy(() -> drain(chat(server.modelName(), 8))).isInstanceOf(OpenAIException.class);
        }
        assertThat(server.groundTruth()).extracting(RequestTruth::fault).doesNotContain(Fault.NONE);
    }
}
