package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PromptTokenizerTest {

    @ParameterizedTest
    @ValueSource(strings = {"simulated", "tiktoken:cl100k_base", "tiktoken:o200k_base", "tiktoken:r50k_base"})
    void should_build_prompts_the_named_tokenizer_counts_exactly(String name) {
        PromptTokenizer tokenizer = PromptTokenizer.parse(name);
        SplittableRandom random = new SplittableRandom(3);
        for (int tokens : new int[] {1, 2, 7, 100, 1000}) {
            String prefix = tokenizer.extend("", random, 5);
            assertThat(tokenizer.count(tokenizer.extend("", random, tokens))).isEqualTo(tokens);
            assertThat(tokenizer.count(tokenizer.extend(prefix, random, tokens + 5)))
                    .isEqualTo(tokens + 5);
        }
    }

    @Test
    void should_count_with_a_byte_level_bpe_tokenizer_json_and_build_exact_prompts() {
        PromptTokenizer tokenizer = PromptTokenizer.huggingFace(TraceReplayTest.resource("tiny-tokenizer.json"));
        // "baba" merges b+a twice then ba+ba; " ba" merges Ġ+ba; "xyz" stays three bytes.
        assertThat(tokenizer.count("baba ba xyz")).isEqualTo(1 + 1 + 1 + 3);
        SplittableRandom random = new SplittableRandom(5);
        for (int tokens : new int[] {1, 3, 50, 600}) {
            String text = tokenizer.extend("", random, tokens);
            assertThat(tokenizer.count(text)).isEqualTo(tokens);
        }
        assertThat(tokenizer.name()).isEqualTo("hf:tiny-tokenizer.json");
    }

    @Test
    void should_read_a_llama3_style_tokenizer_json_with_a_split_regex_nfc_and_ignore_merges() {
        PromptTokenizer tokenizer =
                PromptTokenizer.huggingFace(TraceReplayTest.resource("tiny-llama3-style-tokenizer.json"));
        // " zzz" is a whole vocabulary entry, taken as one token under ignore_merges; digits split in threes.
        assertThat(tokenizer.count("ba zzz")).isEqualTo(2);
        assertThat(tokenizer.count("12345")).isEqualTo(5);
        SplittableRandom random = new SplittableRandom(9);
        for (int tokens : new int[] {1, 4, 200}) {
            assertThat(tokenizer.count(tokenizer.extend("", random, tokens))).isEqualTo(tokens);
        }
    }

    @Test
    void should_refuse_tokenizer_files_it_cannot_read_faithfully() {
        assertThatThrownBy(() -> PromptTokenizer.huggingFace(TraceReplayTest.resource("wordpiece-tokenizer.json")))
                .hasMessageContaining("wordpiece-tokenizer.json: unsupported model")
                .hasMessageContaining("\"WordPiece\"");
        assertThatThrownBy(() -> PromptTokenizer.parse("tiktoken:gpt5"))
                .hasMessageContaining("tiktoken encoding = \"gpt5\" is not known");
        assertThatThrownBy(() -> PromptTokenizer.parse("sentencepiece:x"))
                .hasMessageContaining("tokenizer = \"sentencepiece:x\" must be");
    }
}
