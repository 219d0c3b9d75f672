package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.internal.http.OutputWords;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("WordTokenizer counts maximal runs of non-whitespace, reproducibly")
class WordTokenizerTest {

    @Test
    @DisplayName("a token is a maximal run of non-whitespace characters")
    void tokens_are_runs_of_non_whitespace() {
        assertThat(WordTokenizer.tokens("  Hello,\tworld!\n\nagain ")).containsExactly("Hello,", "world!", "again");
        assertThat(WordTokenizer.count("  Hello,\tworld!\n\nagain ")).isEqualTo(3);
        assertThat(WordTokenizer.count("")).isZero();
        assertThat(WordTokenizer.count(" \n ")).isZero();
    }

    @Test
    @DisplayName("a chat counts each message's tokens plus 3, plus 3 for the reply")
    void chat_adds_the_template_overhead() {
        assertThat(WordTokenizer.countChat(List.of("You are terse.", "Hi there")))
                .isEqualTo(3 + 3 + 2 + 3 + 3);
        assertThat(WordTokenizer.chatHashes(List.of("system", "user"), List.of("You are terse.", "Hi there")))
                .hasSize(WordTokenizer.countChat(List.of("You are terse.", "Hi there")));
    }

    @Test
    @DisplayName("equal prefixes give equal leading hashes, different tokens different hashes")
    void hashes_follow_the_text() {
        long[] first = WordTokenizer.hashes("the quick brown fox");
        long[] second = WordTokenizer.hashes("the quick red fox");

        assertThat(first[0]).isEqualTo(second[0]);
        assertThat(first[1]).isEqualTo(second[1]);
        assertThat(first[2]).isNotEqualTo(second[2]);
        assertThat(WordTokenizer.hash("fox")).isEqualTo(WordTokenizer.hash(new StringBuilder("fox")));
    }

    @Test
    @DisplayName("generated text counts as exactly one token per output token, and depends only on the seed")
    void generated_text_counts_exactly() {
        String text = OutputWords.text(42, 0, 100);

        assertThat(WordTokenizer.count(text)).isEqualTo(100);
        assertThat(text).isEqualTo(OutputWords.text(42, 0, 100)).isNotEqualTo(OutputWords.text(43, 0, 100));
        assertThat(OutputWords.token(42, 7)).startsWith(" ").matches(" [a-z]+");
    }
}
