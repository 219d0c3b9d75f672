package dev.goodput.core.servermetrics.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.internal.redaction.SecretRedaction;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The text format's corners, one at a time, and the errors a malformed page gets. */
class ExpositionTest {

    private static Sample only(String text) {
        List<Sample> samples = parse(text);
        assertThat(samples).hasSize(1);
        return samples.get(0);
    }

    @Test
    void should_read_a_sample_without_labels() {
        assertThat(only("tgi_queue_size 9\n")).isEqualTo(new Sample("tgi_queue_size", Map.of(), 9));
    }

    @Test
    void should_read_an_empty_label_set_as_no_labels() {
        assertThat(only("up{} 1")).isEqualTo(new Sample("up", Map.of(), 1));
    }

    @Test
    void should_keep_labels_in_the_order_written_and_allow_a_trailing_comma() {
        Sample sample = only("vllm:x{model_name=\"m\",engine=\"0\",} 2.5");
        assertThat(sample.labels()).containsExactly(Map.entry("model_name", "m"), Map.entry("engine", "0"));
        assertThat(sample.label("engine")).isEqualTo("0");
    }

    @Test
    void should_unescape_backslash_quote_and_newline_in_label_values() {
        Sample sample = only("m{path=\"C:\\\\models\\\\llama\",say=\"a \\\"b\\\"\",two=\"x\\ny\"} 1");
        assertThat(sample.labels())
                .containsEntry("path", "C:\\models\\llama")
                .containsEntry("say", "a \"b\"")
                .containsEntry("two", "x\ny");
    }

    @Test
    void should_keep_braces_commas_and_hashes_inside_label_values() {
        assertThat(only("m{a=\"{x,y} # z\"} 3").labels()).containsEntry("a", "{x,y} # z");
    }

    @Test
    void should_read_nan_infinities_and_scientific_notation() {
        List<Sample> samples = parse("a NaN\nb +Inf\nc -Inf\nd 1.5e+06\ne -2E-3\nf .5\ng Inf\n");
        assertThat(samples)
                .extracting(Sample::value)
                .containsExactly(
                        Double.NaN,
                        Double.POSITIVE_INFINITY,
                        Double.NEGATIVE_INFINITY,
                        1.5e6,
                        -0.002,
                        0.5,
                        Double.POSITIVE_INFINITY);
    }

    @Test
    void should_ignore_timestamps_comments_blank_lines_and_crlf() {
        List<Sample> samples =
                parse("# a comment\r\n\r\n# HELP x Some help.\r\n# TYPE x gauge\r\nx{a=\"1\"} 4 1700000000000\r\n\r\n"
                        + "   \ty 5\t\r\n");
        assertThat(samples).containsExactly(new Sample("x", Map.of("a", "1"), 4), new Sample("y", Map.of(), 5));
    }

    @Test
    void should_ignore_openmetrics_exemplars_eof_and_created_series() {
        List<Sample> samples = parse("""
                # TYPE foo counter
                foo_total 17.0 1520879607.789 # {trace_id="KOO5S4vxi0o"} 0.67
                foo_created 1520872607.123
                # TYPE bar histogram
                bar_bucket{le="+Inf"} 2 # {trace_id="a"} 0.5 123
                bar_count 2
                bar_sum 1.0
                bar_created 1520872607.123
                # TYPE baz gauge
                baz_created 3
                # EOF
                """);
        assertThat(samples)
                .extracting(Sample::name)
                .containsExactly("foo_total", "bar_bucket", "bar_count", "bar_sum", "baz_created");
    }

    @Test
    void should_drop_the_python_clients_created_gauges_of_counters() {
        List<Sample> samples = parse("""
                # TYPE vllm:prompt_tokens_total counter
                vllm:prompt_tokens_total{engine="0"} 5.0
                # TYPE vllm:prompt_tokens_created gauge
                vllm:prompt_tokens_created{engine="0"} 1.7e+09
                """);
        assertThat(samples).extracting(Sample::name).containsExactly("vllm:prompt_tokens_total");
    }

    @Test
    void should_name_the_line_and_quote_it_when_a_value_is_not_a_number() {
        assertThatThrownBy(() -> parse("a 1\n\nb{x=\"1\"} one\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("line 3: expected a number as the value, got \"one\": b{x=\"1\"} one");
    }

    @Test
    void should_reject_java_only_number_spellings() {
        for (String value : List.of("1d", "0x1p3", "Infinity", "1_000")) {
            assertThatThrownBy(() -> parse("a " + value))
                    .as(value)
                    .hasMessageStartingWith("line 1: expected a number as the value");
        }
    }

    @Test
    void should_reject_structural_errors_with_their_line_number() {
        assertThat(errorOf("x{a=\"1\" 2")).isEqualTo("line 1: expected ',' or '}' after label a: x{a=\"1\" 2");
        assertThat(errorOf("ok 1\nx{a=\"1} 2")).startsWith("line 2: unterminated value of label a");
        assertThat(errorOf("x{a=1} 2")).startsWith("line 1: expected '\"' after label a");
        assertThat(errorOf("x{a=\"\\t\"} 2")).startsWith("line 1: invalid escape \\t in the value of label a");
        assertThat(errorOf("x{a=\"1\",a=\"2\"} 2")).startsWith("line 1: label a given twice");
        assertThat(errorOf("x")).startsWith("line 1: expected a space and a value after x");
        assertThat(errorOf("x 1 2 3")).startsWith("line 1: unexpected text after the value");
        assertThat(errorOf("9x 1")).startsWith("line 1: expected a metric name");
        assertThat(errorOf("x{9=\"1\"} 1")).startsWith("line 1: expected a label name or '}' at column 3");
    }

    @Test
    void should_truncate_a_long_offending_line_in_the_message() {
        String line = "x{a=\"" + "y".repeat(500) + "\"} oops";
        String message = errorOf(line);
        assertThat(message).endsWith("...").hasSizeLessThan(250);
    }

    private static String errorOf(String text) {
        try {
            parse(text);
        } catch (IllegalArgumentException expected) {
            return expected.getMessage();
        }
        throw new AssertionError("no error for " + text);
    }

    private static List<Sample> parse(String text) {
        return Exposition.parse(text, SecretRedaction.none());
    }
}
