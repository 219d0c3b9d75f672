package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.RequestOptions;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.Completion;
import com.openai.models.completions.CompletionCreateParams;
import com.openai.models.models.Model;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The conformance proof: the official OpenAI Java SDK, validating every response strictly and never retrying,
 * and LangChain4j's streaming chat model talk to the server (real engine, fixed model) without an error.
 */
@DisplayName("Real OpenAI clients stream from the mock server without errors")
class ClientConformanceTest {

    private static MockServer server;
    private static OpenAIClient openAi;

    @BeforeAll
    static void start() {
        server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(1))));
        openAi = OpenAIOkHttpClient.builder()
                .baseUrl(server.baseUrl() + "/v1")
                .apiKey("test")
                .maxRetries(0)
                .timeout(Duration.ofSeconds(30))
                .responseValidation(true)
                .build();
    }

    @AfterAll
    static void stop() {
        openAi.close();
        server.close();
    }

    @Test
    @DisplayName("the OpenAI SDK streams a chat and reassembles it with ChatCompletionAccumulator, usage included")
    void openai_sdk_streams_a_chat() throws Exception {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder()
                .model(server.modelName())
                .addUserMessage("Say hello to the whole world")
                .maxCompletionTokens(12)
                .seed(5)
                .streamOptions(
                        ChatCompletionStreamOptions.builder().includeUsage(true).build())
                .putAdditionalBodyProperty("ignore_eos", com.openai.core.JsonValue.from(true))
                .build();
        ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> stream =
                openAi.chat().completions().createStreaming(params)) {
            stream.stream().forEach(accumulator::accumulate);
        }
        ChatCompletion completion = accumulator.chatCompletion();
        completion.validate();

        String text = completion.choices().get(0).message().content().orElseThrow();
        assertThat(WordTokenizer.count(text)).isEqualTo(12);
        assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.LENGTH);
        assertThat(completion.usage().orElseThrow().completionTokens()).isEqualTo(12);
        assertThat(completion.usage().orElseThrow().promptTokens())
                .isEqualTo(WordTokenizer.countChat(List.of("Say hello to the whole world")));
        RequestTruth truth = awaitTruth(completion.id());
        assertThat(truth.completionTokens()).isEqualTo(12);
    }

    @Test
    @DisplayName("the OpenAI SDK gets a whole chat completion without streaming")
    void openai_sdk_gets_a_chat_without_streaming() {
        ChatCompletion completion = openAi.chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model(server.modelName())
                        .addUserMessage("hi")
                        .maxCompletionTokens(4)
                        .putAdditionalBodyProperty("ignore_eos", com.openai.core.JsonValue.from(true))
                        .build());

        assertThat(WordTokenizer.count(
                        completion.choices().get(0).message().content().orElseThrow()))
                .isEqualTo(4);
        assertThat(completion.usage().orElseThrow().totalTokens()).isEqualTo(4 + 1 + 3 + 3);
    }

    @Test
    @DisplayName("the OpenAI SDK streams a legacy completion; every chunk reads, the last validates strictly")
    void openai_sdk_streams_a_completion() {
        CompletionCreateParams params = CompletionCreateParams.builder()
                .model(server.modelName())
                .prompt("Once upon a time")
                .maxTokens(9)
                .putAdditionalBodyProperty("ignore_eos", com.openai.core.JsonValue.from(true))
                .build();
        // The SDK's legacy Completion model declares finish_reason non-null, yet OpenAI and vLLM both send null on
        // every chunk but the last, so strict validation of a whole legacy stream fails against any real server.
        // Read every chunk through the typed accessors instead, and validate the final chunk strictly.
        List<Completion> chunks;
        try (StreamResponse<Completion> stream = openAi.completions()
                .createStreaming(
                        params,
                        RequestOptions.builder().responseValidation(false).build())) {
            chunks = stream.stream().collect(Collectors.toList());
        }
        StringBuilder text = new StringBuilder();
        for (Completion chunk : chunks) {
            assertThat(chunk.id()).startsWith("cmpl-");
            assertThat(chunk.model()).isEqualTo(server.modelName());
            assertThat(chunk.created()).isPositive();
            chunk.choices().forEach(choice -> text.append(choice.text()));
        }
        chunks.get(chunks.size() - 1).validate();

        assertThat(WordTokenizer.count(text)).isEqualTo(9);
        assertThat(chunks.get(chunks.size() - 1).choices().get(0).finishReason().asString())
                .isEqualTo("length");
    }

    @Test
    @DisplayName("the OpenAI SDK lists the served model")
    void openai_sdk_lists_the_model() {
        List<Model> models = openAi.models().list().data();

        assertThat(models).extracting(Model::id).containsExactly(server.modelName());
    }

    @Test
    @DisplayName("LangChain4j's OpenAiStreamingChatModel streams a chat with usage and finish reason")
    void langchain4j_streams_a_chat() throws Exception {
        OpenAiStreamingChatModel model = OpenAiStreamingChatModel.builder()
                .baseUrl(server.baseUrl() + "/v1")
                .apiKey("test")
                .modelName(server.modelName())
                .maxTokens(7)
                .seed(3)
                .timeout(Duration.ofSeconds(30))
                .build();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        StringBuilder partials = new StringBuilder();
        model.chat("Tell me a story", new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partialResponse) {
                partials.append(partialResponse);
            }

            @Override
            public void onCompleteResponse(ChatResponse completeResponse) {
                done.complete(completeResponse);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }
        });
        ChatResponse response = done.get(30, TimeUnit.SECONDS);

        assertThat(response.aiMessage().text()).isEqualTo(partials.toString());
        assertThat(WordTokenizer.count(partials)).isBetween(1, 7);
        assertThat(response.tokenUsage().outputTokenCount()).isEqualTo(WordTokenizer.count(partials));
        assertThat(response.tokenUsage().inputTokenCount())
                .isEqualTo(WordTokenizer.countChat(List.of("Tell me a story")));
        assertThat(response.finishReason()).isNotNull();
    }

    @Test
    @DisplayName("the OpenAI SDK streams from the continuous-batching engine of the default preset too")
    void openai_sdk_streams_from_the_batching_engine() {
        try (MockServer batching = MockServer.start(MockServerConfig.defaults())) {
            OpenAIClient client = OpenAIOkHttpClient.builder()
                    .baseUrl(batching.baseUrl() + "/v1")
                    .apiKey("test")
                    .maxRetries(0)
                    .responseValidation(true)
                    .build();
            ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
            try (StreamResponse<ChatCompletionChunk> stream = client.chat()
                    .completions()
                    .createStreaming(ChatCompletionCreateParams.builder()
                            .model(batching.modelName())
                            .addUserMessage("Count to ten")
                            .maxCompletionTokens(16)
                            .streamOptions(ChatCompletionStreamOptions.builder()
                                    .includeUsage(true)
                                    .build())
                            .putAdditionalBodyProperty("ignore_eos", com.openai.core.JsonValue.from(true))
                            .build())) {
                stream.stream().forEach(accumulator::accumulate);
            }
            client.close();

            ChatCompletion completion = accumulator.chatCompletion();
            assertThat(WordTokenizer.count(
                            completion.choices().get(0).message().content().orElseThrow()))
                    .isEqualTo(16);
            assertThat(completion.usage().orElseThrow().completionTokens()).isEqualTo(16);
        }
    }

    /** Waits for this request's truth: the server is shared, so other tests' records may already be there. */
    private static RequestTruth awaitTruth(String id) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            for (RequestTruth truth : server.groundTruth()) {
                if (truth.id().equals(id)) {
                    return truth;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no ground truth for request " + id + " within 10 s");
            }
            Thread.sleep(5);
        }
    }
}
