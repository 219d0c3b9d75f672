package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.internal.engine.Generation;
import dev.goodput.mock.internal.http.OutputWords;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The mock server streams like vLLM's OpenAI server")
class StreamingProtocolTest {

    private static final String MODEL = "test/model";
    private static final String CHAT_PREFIX =
            "data: {\"id\":\"ID\",\"object\":\"chat.completion.chunk\",\"created\":0,\"model\":\"test/model\",\"choices\":[";
    private static final String COMPLETION_PREFIX =
            "data: {\"id\":\"ID\",\"object\":\"text_completion\",\"created\":0,\"model\":\"test/model\",\"choices\":[";
    private static final String ROLE =
            "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]";

    private MockServer server;
    private ScriptedEngine engine;

    private MockServer start(int naturalLength, int tokensPerChunk) {
        engine = new ScriptedEngine(naturalLength, tokensPerChunk, 2);
        server = MockServer.start(
                MockServerConfig.builder()
                        .modelName(MODEL)
                        .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1)))
                        .build(),
                engine);
        return server;
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static String word(long seed, int index) {
        return OutputWords.token(seed, index);
    }

    private static String chatContent(String text, String finish) {
        return CHAT_PREFIX + "{\"index\":0,\"delta\":{\"content\":\"" + text
                + "\"},\"logprobs\":null,\"finish_reason\":"
                + (finish == null ? "null}]" : "\"" + finish + "\",\"stop_reason\":null}]");
    }

    private static String usage(int prompt, int completion) {
        return ",\"usage\":{\"prompt_tokens\":" + prompt + ",\"total_tokens\":" + (prompt + completion)
                + ",\"completion_tokens\":" + completion + "}";
    }

    @Test
    @DisplayName("a chat stream has a role chunk, one token per chunk, finish_reason on the last, usage, [DONE]")
    void chat_stream_matches_vllm_byte_for_byte() {
        start(100, 1);
        HttpResponse<String> response = TestHttp.post(
                server,
                "/v1/chat/completions",
                "{\"model\":\"test/model\","
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"Say hello to the world\"}],\"max_tokens\":3,"
                        + "\"seed\":7,\"stream\":true,\"stream_options\":{\"include_usage\":true}}");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        assertThat(response.headers().firstValue("transfer-encoding")).hasValue("chunked");
        int prompt = 5 + 3 + 3;
        String expected = CHAT_PREFIX + ROLE + "}\n\n"
                + chatContent(word(7, 0), null) + "}\n\n"
                + chatContent(word(7, 1), null) + "}\n\n"
                + chatContent(word(7, 2), "length") + "}\n\n"
                + CHAT_PREFIX + "]" + usage(prompt, 3) + "}\n\n"
                + "data: [DONE]\n\n";
        assertThat(TestHttp.normalise(response.body())).isEqualTo(expected);
    }

    @Test
    @DisplayName("with continuous_usage_stats every chunk carries cumulative usage, the role chunk 0 tokens")
    void continuous_usage_is_cumulative() {
        start(100, 1);
        HttpResponse<String> response = TestHttp.post(
                server,
                "/v1/chat/completions",
                "{\"model\":\"test/model\","
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_completion_tokens\":2,\"seed\":3,"
                        + "\"stream\":true,\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}}");

        int prompt = 1 + 3 + 3;
        String expected = CHAT_PREFIX + ROLE + usage(prompt, 0) + "}\n\n"
                + chatContent(word(3, 0), null) + usage(prompt, 1) + "}\n\n"
                + chatContent(word(3, 1), "length") + usage(prompt, 2) + "}\n\n"
                + CHAT_PREFIX + "]" + usage(prompt, 2) + "}\n\n"
                + "data: [DONE]\n\n";
        assertThat(TestHttp.normalise(response.body())).isEqualTo(expected);
    }

    @Test
    @DisplayName("a completion stream has text chunks with usage null and stop_reason, and no usage chunk unasked")
    void completion_stream_matches_vllm_byte_for_byte() {
        start(100, 1);
        HttpResponse<String> response = TestHttp.post(
                server,
                "/v1/completions",
                "{\"model\":\"test/model\",\"prompt\":\"one two three\",\"max_tokens\":2,\"seed\":11,"
                        + "\"stream\":true,\"some_future_field\":{\"x\":1}}");

        String expected = COMPLETION_PREFIX + "{\"index\":0,\"text\":\"" + word(11, 0)
                + "\",\"logprobs\":null,\"finish_reason\":null,\"stop_reason\":null}],\"usage\":null}\n\n"
                + COMPLETION_PREFIX + "{\"index\":0,\"text\":\"" + word(11, 1)
                + "\",\"logprobs\":null,\"finish_reason\":\"length\",\"stop_reason\":null}],\"usage\":null}\n\n"
                + "data: [DONE]\n\n";
        assertThat(TestHttp.normalise(response.body())).isEqualTo(expected);
    }

    @Test
    @DisplayName("a natural stop ends with an empty content chunk carrying finish_reason stop")
    void natural_stop_ends_with_an_empty_chunk() {
        start(2, 1);
        HttpResponse<String> response = TestHttp.post(
                server,
                "/v1/chat/completions",
                "{\"model\":\"test/model\","
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":10,\"seed\":5,\"stream\":true}");

        String expected = CHAT_PREFIX + ROLE + "}\n\n"
                + chatContent(word(5, 0), null) + "}\n\n"
                + chatContent(word(5, 1), null) + "}\n\n"
                + chatContent("", "stop") + "}\n\n"
                + "data: [DONE]\n\n";
        assertThat(TestHttp.normalise(response.body())).isEqualTo(expected);
    }

    @Test
    @DisplayName("multi-token emissions go out as one chunk with all their words")
    void multi_token_chunks_carry_several_words() {
        start(100, 2);
        HttpResponse<String> response = TestHttp.post(
                server,
                "/v1/chat/completions",
                "{\"model\":\"test/model\","
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":3,\"seed\":9,\"stream\":true,"
                        + "\"ignore_eos\":true}");

        String expected = CHAT_PREFIX + ROLE + "}\n\n"
                + chatContent(word(9, 0) + word(9, 1), null) + "}\n\n"
                + chatContent(word(9, 2), "length") + "}\n\n"
                + "data: [DONE]\n\n";
        assertThat(TestHttp.normalise(response.body())).isEqualTo(expected);
    }

    @Test
    @DisplayName("the engine gets the prompt tokens, max/min tokens, ignore_eos and seed of the request")
    void the_engine_gets_the_benchmark_parameters() {
        start(100, 1);
        TestHttp.post(
                server,
                "/v1/completions",
                "{\"model\":\"test/model\",\"prompt\":[\"a b  c\\nd\", \"ignored\"],"
                        + "\"max_tokens\":4,\"min_tokens\":2,\"ignore_eos\":true,\"seed\":42,\"temperature\":0}");

        Generation generation = engine.submitted.get(0);
        assertThat(generation.promptTokens()).isEqualTo(4);
        assertThat(generation.promptTokenHashes()).containsExactly(WordTokenizer.hashes("a b c d"));
        assertThat(generation.maxTokens()).isEqualTo(4);
        assertThat(generation.minTokens()).isEqualTo(2);
        assertThat(generation.ignoreEos()).isTrue();
        assertThat(generation.seed()).isEqualTo(42);
    }
}
