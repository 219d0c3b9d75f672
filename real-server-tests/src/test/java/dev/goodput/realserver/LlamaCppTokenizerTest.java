package dev.goodput.realserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.workload.PromptTokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Goodput's {@code hf:} tokenizer, reading the tokenizer.json made from the model's own vocabulary, counts every
 * text as the engine's {@code /tokenize} does: so a workload's prompt lengths are the engine's.
 */
@RequiresLlamaServer
class LlamaCppTokenizerTest {

    private static final LlamaServer SERVER = LlamaServer.withSlots(1, 512);
    private static PromptTokenizer tokenizer;

    @BeforeAll
    static void start() {
        SERVER.start();
        tokenizer = PromptTokenizer.huggingFace(LlamaServer.tokenizerFile());
    }

    @AfterAll
    static void stop() {
        SERVER.stop();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Hello, world!",
                "The quick brown fox jumps over the lazy dog.",
                "   leading spaces and trailing   ",
                "numbers 1234567 and 3.14159 and 2026-11-24",
                "don't won't they're I'll we've",
                "CamelCaseIdentifiers and snake_case_names",
                "tabs\tand\nnew\n\nlines",
                "Ünïcödé café naïve résumé",
                "日本語のテキストと中文文本",
                "emoji 🎉🚀 and symbols ©®™",
                "code: for (int i = 0; i < n; i++) { sum += a[i]; }",
                "https://example.com/path?query=1&other=two#fragment",
                "a",
                "!!!???...",
                "     ",
                "no-break\u00a0\u00a0spaces and ideographic\u3000\u3000ones",
                "a line\u2028separator and\u0085next line"
            })
    void should_count_as_the_engine_tokenizes(String text) throws Exception {
        assertCountsAsTheEngine(text);
    }

    /** The prompts whose ids were recorded with the samples (core/src/test/resources/real-streams/llama.cpp). */
    @ParameterizedTest
    @MethodSource("recordedPrompts")
    void should_count_the_recorded_prompts_as_the_engine_tokenizes(String text) throws Exception {
        assertCountsAsTheEngine(text);
    }

    static Stream<String> recordedPrompts() throws IOException {
        JsonNode samples = new ObjectMapper()
                .readTree(Path.of(
                                "..",
                                "core",
                                "src",
                                "test",
                                "resources",
                                "real-streams",
                                "llama.cpp",
                                "tokenize-samples.json")
                        .toFile());
        List<String> texts = new ArrayList<>();
        samples.forEach(sample -> texts.add(sample.get("text").asText()));
        return texts.stream();
    }

    private static void assertCountsAsTheEngine(String text) throws IOException {
        List<Integer> engine = SERVER.tokenize(text);

        assertThat(tokenizer.count(text))
                .as("tokens of %s; the engine's ids %s", text, engine)
                .isEqualTo(engine.size());
    }
}
