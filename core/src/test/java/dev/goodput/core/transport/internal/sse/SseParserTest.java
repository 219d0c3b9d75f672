package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.transport.internal.sse.RecordingListener.Received;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SseParserTest {

    /** The time {@link #parse} gives to {@code finish}. */
    private static final long FINISH = 99;

    /** Feeds each read with time 1, 2, 3..., then finishes with time {@link #FINISH}. */
    private static RecordingListener parse(String... reads) throws SseFormatException {
        byte[][] bytes = Arrays.stream(reads).map(SseParserTest::utf8).toArray(byte[][]::new);
        return parse(bytes);
    }

    private static RecordingListener parse(byte[]... reads) throws SseFormatException {
        RecordingListener listener = new RecordingListener();
        SseParser parser = new SseParser(listener);
        for (int i = 0; i < reads.length; i++) {
            parser.feed(reads[i], 0, reads[i].length, i + 1);
        }
        parser.finish(FINISH);
        return listener;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static SseEvent data(String data) {
        return new SseEvent(null, data);
    }

    @Test
    void should_strip_exactly_one_leading_space_from_a_data_value() throws Exception {
        assertThat(parse("data: a\n\ndata:b\n\ndata:  c\n\ndata:\td\n\n").events())
                .containsExactly(data("a"), data("b"), data(" c"), data("\td"));
    }

    @Test
    void should_set_the_type_from_the_event_field_and_forget_it_after_dispatch() throws Exception {
        assertThat(parse("event: message\ndata: a\n\ndata: b\n\nevent:\ndata: c\n\n")
                        .events())
                .containsExactly(new SseEvent("message", "a"), data("b"), data("c"));
    }

    @Test
    void should_keep_the_last_event_field_when_there_are_several() throws Exception {
        assertThat(parse("event: first\nevent: second\ndata: a\n\n").events())
                .containsExactly(new SseEvent("second", "a"));
    }

    @Test
    void should_ignore_comment_lines_wherever_they_are() throws Exception {
        assertThat(parse(": keep-alive\n\ndata: a\n: in the middle\ndata: b\n\n:\n\n")
                        .events())
                .containsExactly(data("a\nb"));
    }

    @Test
    void should_join_several_data_lines_with_a_line_feed() throws Exception {
        assertThat(parse("data: one\ndata: two\ndata: three\n\n").events()).containsExactly(data("one\ntwo\nthree"));
    }

    @Test
    void should_dispatch_empty_data_lines_as_empty_strings() throws Exception {
        assertThat(parse("data:\n\ndata\n\ndata:\ndata:\n\ndata: \n\n").events())
                .containsExactly(data(""), data(""), data("\n"), data(""));
    }

    @Test
    void should_not_dispatch_an_event_without_data_lines() throws Exception {
        assertThat(parse("event: ping\n\nid: 7\n\nretry: 100\n\n\n\n").received).isEmpty();
    }

    @Test
    void should_read_a_line_without_colon_as_a_field_with_an_empty_value() throws Exception {
        assertThat(parse("event: x\nevent\ndata: a\n\n").events()).containsExactly(data("a"));
    }

    @Test
    void should_ignore_id_retry_and_unknown_fields() throws Exception {
        assertThat(parse("id: 1\nretry: 3000\nfoo: bar\nDATA: shout\ndata: a\nid\n\n")
                        .events())
                .containsExactly(data("a"));
    }

    @Test
    void should_split_lines_at_crlf_cr_and_lf_alike() throws Exception {
        assertThat(parse("data: a\r\ndata: b\r\n\r\ndata: c\rdata: d\r\rdata: e\ndata: f\r\n\n")
                        .events())
                .containsExactly(data("a\nb"), data("c\nd"), data("e\nf"));
    }

    @Test
    void should_read_a_cr_ending_one_read_and_a_lf_starting_the_next_as_one_line_end() throws Exception {
        // Were the LF a second line end, it would be an empty line and dispatch "a" alone.
        assertThat(parse("data: a\r", "\ndata: b\r\n", "\r", "\n").received)
                .containsExactly(Received.of(null, "a\nb", 3));
    }

    @Test
    void should_read_a_cr_ending_one_read_followed_by_a_cr_as_two_line_ends() throws Exception {
        assertThat(parse("data: a\r", "\rdata: b\n\n").received)
                .containsExactly(Received.of(null, "a", 2), Received.of(null, "b", 2));
    }

    @Test
    void should_still_pair_a_cr_and_lf_separated_by_an_empty_read() throws Exception {
        assertThat(parse("data: a\r", "", "\n", "\n").received).containsExactly(Received.of(null, "a", 4));
    }

    @Test
    void should_join_a_line_split_across_reads() throws Exception {
        assertThat(parse("da", "ta: hel", "lo", "\n", "\n").received).containsExactly(Received.of(null, "hello", 5));
    }

    @Test
    void should_decode_a_multi_byte_character_split_across_reads() throws Exception {
        byte[] bytes = utf8("data: é🚀\n\n");
        // 'é' is bytes 6-7, the rocket bytes 8-11: split inside both.
        assertThat(parse(
                                Arrays.copyOfRange(bytes, 0, 7),
                                Arrays.copyOfRange(bytes, 7, 10),
                                Arrays.copyOfRange(bytes, 10, bytes.length))
                        .received)
                .containsExactly(Received.of(null, "é🚀", 3));
    }

    @Test
    void should_give_every_event_completed_in_one_read_that_reads_time() throws Exception {
        assertThat(parse("data: a\n\ndata: b\n\ndata: c\n", "\ndata: d\n\nda", "ta: e\n\n").received)
                .containsExactly(
                        Received.of(null, "a", 1),
                        Received.of(null, "b", 1),
                        Received.of(null, "c", 2),
                        Received.of(null, "d", 2),
                        Received.of(null, "e", 3));
    }

    @Test
    void should_skip_a_byte_order_mark_at_the_start_of_the_stream() throws Exception {
        assertThat(parse("\uFEFFdata: a\n\n").events()).containsExactly(data("a"));
    }

    @Test
    void should_skip_a_byte_order_mark_split_across_reads() throws Exception {
        byte[] bom = utf8("\uFEFF");
        assertThat(parse(new byte[] {bom[0]}, new byte[] {bom[1]}, new byte[] {bom[2]}, utf8("data: a\n\n"))
                        .events())
                .containsExactly(data("a"));
    }

    @Test
    void should_not_skip_a_byte_order_mark_after_the_start() throws Exception {
        // A second BOM makes the field name "\uFEFFdata", which is unknown; inside a value it is kept.
        assertThat(parse("\uFEFF\uFEFFdata: a\n\ndata: \uFEFFb\n\n").events()).containsExactly(data("\uFEFFb"));
    }

    @Test
    void should_read_a_bare_error_field_as_an_error_event() throws Exception {
        assertThat(parse("error: {\"code\":500,\"message\":\"boom\"}\n\n").events())
                .containsExactly(new SseEvent("error", "{\"code\":500,\"message\":\"boom\"}"));
    }

    @Test
    void should_dispatch_a_last_event_without_blank_line_on_finish_with_the_finish_time() throws Exception {
        assertThat(parse("data: a\n\n", "data: [DONE]").received)
                .containsExactly(Received.of(null, "a", 1), Received.of(null, "[DONE]", FINISH));
        assertThat(parse("data: [DONE]\n").received).containsExactly(Received.of(null, "[DONE]", FINISH));
        assertThat(parse("data: [DONE]\r").received).containsExactly(Received.of(null, "[DONE]", FINISH));
    }

    @Test
    void should_dispatch_nothing_on_finish_after_a_complete_stream() throws Exception {
        assertThat(parse("data: a\n\n").received).containsExactly(Received.of(null, "a", 1));
        assertThat(parse("event: x", "").received).isEmpty();
        assertThat(parse(": comment").received).isEmpty();
    }

    @Test
    void should_start_a_new_stream_after_finish() throws Exception {
        RecordingListener listener = new RecordingListener();
        SseParser parser = new SseParser(listener);
        byte[] first = utf8("event: x\ndata: a");
        byte[] second = utf8("\uFEFFdata: b\n\n");
        parser.feed(first, 0, first.length, 1);
        parser.finish(2);
        parser.feed(second, 0, second.length, 3);
        parser.finish(4);

        assertThat(listener.received).containsExactly(Received.of("x", "a", 2), Received.of(null, "b", 3));
    }

    @Test
    void should_replace_invalid_utf8_instead_of_failing() throws Exception {
        byte[] bytes = {'d', 'a', 't', 'a', ':', ' ', (byte) 0xC3, 'x', (byte) 0xFF, '\n', '\n'};

        assertThat(parse(bytes).events()).containsExactly(data("\uFFFDx\uFFFD"));
    }
}
