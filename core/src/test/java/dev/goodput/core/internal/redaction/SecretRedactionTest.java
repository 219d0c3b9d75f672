package dev.goodput.core.internal.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** The one redaction point: the key whole and in pieces at a text's edges, secret-looking text, URLs, cuts. */
class SecretRedactionTest {

    private static final String KEY = "Qv7NwL2xp9RtZ4mKc8YbJ3hFd6GsA1eU-k7";
    private static final SecretRedaction REDACTION = SecretRedaction.of(KEY);

    @Test
    void should_replace_the_whole_key_and_any_piece_of_four_or_more_characters_at_either_edge() {
        assertThat(REDACTION.redact("invalid key " + KEY + "!")).isEqualTo("invalid key [redacted API key]!");
        for (int length = SecretRedaction.SHORTEST_PIECE; length < KEY.length(); length++) {
            assertThat(REDACTION.redact("cut here: " + KEY.substring(0, length)))
                    .as("the key's first %d characters at the end", length)
                    .isEqualTo("cut here: [redacted API key]");
            assertThat(REDACTION.redact(KEY.substring(KEY.length() - length) + " was the tail"))
                    .as("the key's last %d characters at the start", length)
                    .isEqualTo("[redacted API key] was the tail");
        }
        assertThat(REDACTION.redact("ends in Qv7"))
                .as("three characters are no piece")
                .isEqualTo("ends in Qv7");
    }

    @Test
    void should_redact_before_it_cuts_so_that_no_cut_through_the_key_leaves_a_piece() {
        for (TextCut cut : TextCut.values()) {
            for (int start = cut.chars() - KEY.length() - 5; start <= cut.chars() + 1; start++) {
                String text = "x".repeat(Math.max(0, start)) + KEY + "tail";
                String shown = REDACTION.cut(text, cut);
                for (int piece = 0; piece + SecretRedaction.SHORTEST_PIECE <= KEY.length(); piece++) {
                    assertThat(shown)
                            .as("%s with the key at %d", cut, start)
                            .doesNotContain(KEY.substring(piece, piece + SecretRedaction.SHORTEST_PIECE));
                }
                assertThat(shown.length()).isLessThanOrEqualTo(cut.chars() + "... (99999 chars)".length());
            }
        }
    }

    @Test
    void should_mark_a_cut_as_each_cut_says() {
        String text = "y".repeat(300);
        assertThat(REDACTION.cut(text, TextCut.EVENT_EXCERPT)).isEqualTo("y".repeat(120) + "... (300 chars)");
        assertThat(REDACTION.cut(text, TextCut.DATASET_LINE)).isEqualTo("y".repeat(77) + "...");
        assertThat(REDACTION.cut(text, TextCut.METRICS_LINE)).isEqualTo("y".repeat(120) + "...");
        assertThat(REDACTION.cut("short", TextCut.EVENT_EXCERPT)).isEqualTo("short");
    }

    @Test
    void should_remove_what_looks_like_a_secret_without_knowing_the_key() {
        SecretRedaction none = SecretRedaction.none();
        assertThat(none.redact("Authorization: Bearer abcdefgh12345678")).isEqualTo("Authorization: Bearer [redacted]");
        assertThat(none.redact("key sk-proj-abcdefghijklmnop rejected")).isEqualTo("key [redacted] rejected");
        assertThat(none.redact("GET /v1?api_key=abc123&model=m")).isEqualTo("GET /v1?api_key=[redacted]&model=m");
        assertThat(none.redact("invalid key Bearer [redacted API key]"))
                .isEqualTo("invalid key Bearer [redacted API key]");
        assertThat(none.redact("max_tokens=4096 is too large")).isEqualTo("max_tokens=4096 is too large");
    }

    @Test
    void should_show_a_url_without_its_user_information_and_secret_looking_query_values() {
        assertThat(SecretRedaction.shownUrl(
                        URI.create("https://user:pass@gw.example:8443/llm?api_key=s3cret&region=eu")))
                .isEqualTo("https://[redacted]@gw.example:8443/llm?api_key=[redacted]&region=eu");
        assertThat(SecretRedaction.shownUrl(URI.create("http://127.0.0.1:8000/x?k=" + KEY + "&n=1")))
                .as("a value shaped like a key, whatever its name")
                .isEqualTo("http://127.0.0.1:8000/x?k=[redacted]&n=1");
        assertThat(SecretRedaction.shownUrl(URI.create("http://127.0.0.1:8000")))
                .isEqualTo("http://127.0.0.1:8000");
    }
}
