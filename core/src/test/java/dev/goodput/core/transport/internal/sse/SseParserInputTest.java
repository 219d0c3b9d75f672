package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.transport.internal.sse.RecordingListener.Received;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** How the parser takes its input: array ranges, buffer kinds, the line-end scan and the size limit. */
class SseParserInputTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static SseEvent data(String data) {
        return new SseEvent(null, data);
    }

    @Test
    void should_read_only_the_given_range_of_an_array() throws Exception {
        RecordingListener listener = new RecordingListener();
        byte[] bytes = utf8("xxdata: a\n\nyy");
        new SseParser(listener).feed(bytes, 2, bytes.length - 4, 7);

        assertThat(listener.received).containsExactly(Received.of(null, "a", 7));
    }

    @Test
    void should_consume_heap_direct_and_read_only_buffers() throws Exception {
        RecordingListener listener = new RecordingListener();
        SseParser parser = new SseParser(listener);
        ByteBuffer heap = ByteBuffer.wrap(utf8("__data: a\n\n")).position(2);
        ByteBuffer direct =
                ByteBuffer.allocateDirect(16).put(utf8("data: b\n\n")).flip();
        ByteBuffer readOnly = ByteBuffer.wrap(utf8("data: c\n\n")).asReadOnlyBuffer();

        parser.feed(heap, 1);
        parser.feed(direct, 2);
        parser.feed(readOnly, 3);

        assertThat(listener.received)
                .containsExactly(Received.of(null, "a", 1), Received.of(null, "b", 2), Received.of(null, "c", 3));
        assertThat(heap.hasRemaining()).isFalse();
        assertThat(direct.hasRemaining()).isFalse();
        assertThat(readOnly.hasRemaining()).isFalse();
    }

    @Test
    void should_read_a_direct_buffer_larger_than_its_copy_chunk() throws Exception {
        String big = "x".repeat(40_000);
        byte[] bytes = utf8("data: " + big + "\n\ndata: b\n\n");
        RecordingListener listener = new RecordingListener();
        new SseParser(listener)
                .feed(ByteBuffer.allocateDirect(bytes.length).put(bytes).flip(), 5);

        assertThat(listener.received).containsExactly(Received.of(null, big, 5), Received.of(null, "b", 5));
    }

    @Test
    void should_accept_an_event_exactly_at_the_size_limit() throws Exception {
        RecordingListener listener = new RecordingListener();
        SseParser parser = new SseParser(listener, 10);
        byte[] bytes = utf8("data:01234\ndata:5678\n\n");
        parser.feed(bytes, 0, bytes.length, 1);

        assertThat(listener.events()).containsExactly(data("01234\n5678"));
    }

    @Test
    void should_reject_a_line_longer_than_the_limit_within_one_read() {
        SseParser parser = new SseParser(new RecordingListener(), 10);
        byte[] bytes = utf8("data: 0123456789\n\n");

        assertThatThrownBy(() -> parser.feed(bytes, 0, bytes.length, 1))
                .isInstanceOfSatisfying(SseFormatException.class, e -> {
                    assertThat(e.limitBytes()).isEqualTo(10);
                    assertThat(e.sizeBytes()).isEqualTo(16);
                })
                .hasMessageContaining("limit of 10 bytes")
                .hasMessageContaining("16 bytes");
    }

    @Test
    void should_reject_a_line_that_grows_past_the_limit_across_reads_before_it_ends() throws Exception {
        SseParser parser = new SseParser(new RecordingListener(), 10);
        byte[] bytes = utf8("data: 01234");
        parser.feed(bytes, 0, 8, 1);

        assertThatThrownBy(() -> parser.feed(bytes, 8, 3, 2))
                .isInstanceOfSatisfying(
                        SseFormatException.class, e -> assertThat(e.sizeBytes()).isEqualTo(11));
    }

    @Test
    void should_reject_joined_data_larger_than_the_limit() {
        SseParser parser = new SseParser(new RecordingListener(), 10);
        byte[] bytes = utf8("data:01234\ndata:56789\n\n");

        assertThatThrownBy(() -> parser.feed(bytes, 0, bytes.length, 1))
                .isInstanceOfSatisfying(
                        SseFormatException.class, e -> assertThat(e.sizeBytes()).isEqualTo(11));
    }

    @Test
    void should_keep_failing_after_the_limit_was_exceeded() {
        SseParser parser = new SseParser(new RecordingListener(), 4);
        byte[] bytes = utf8("data: 01234\n\n");

        assertThatThrownBy(() -> parser.feed(bytes, 0, bytes.length, 1)).isInstanceOf(SseFormatException.class);
        assertThatThrownBy(() -> parser.feed(utf8("\n"), 0, 1, 2)).isInstanceOf(SseFormatException.class);
        assertThatThrownBy(() -> parser.finish(3)).isInstanceOf(SseFormatException.class);
    }

    @Test
    void should_find_the_first_line_end_at_every_position_among_bytes_that_differ_by_one_bit() {
        byte[] lookalikes = {0x00, 0x09, 0x0B, 0x0C, 0x0E, 0x1A, 0x2A, (byte) 0x8A, (byte) 0x8D, (byte) 0xFF, 'a'};
        SplittableRandom random = new SplittableRandom(3);
        for (int length = 0; length <= 40; length++) {
            for (int lineEnd = 0; lineEnd <= length; lineEnd++) {
                for (int from = 0; from <= Math.min(3, length); from++) {
                    byte[] bytes = new byte[length];
                    for (int i = 0; i < length; i++) {
                        bytes[i] = lookalikes[random.nextInt(lookalikes.length)];
                    }
                    if (lineEnd < length) {
                        bytes[lineEnd] = random.nextBoolean() ? (byte) '\n' : (byte) '\r';
                        if (lineEnd + 1 < length) {
                            bytes[lineEnd + 1] = random.nextBoolean() ? (byte) '\n' : (byte) '\r';
                        }
                    }
                    int expected = lineEnd < from ? from : lineEnd;
                    if (lineEnd < from) {
                        // The planted line end lies before the range: the range holds at most its successor.
                        expected = from < length && (bytes[from] == '\n' || bytes[from] == '\r') ? from : length;
                    }
                    assertThat(SseParser.indexOfLineEnd(bytes, from, length))
                            .as("length %d, line end %d, from %d", length, lineEnd, from)
                            .isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void should_default_to_a_limit_of_32_mib() {
        assertThat(SseParser.DEFAULT_MAX_EVENT_BYTES).isEqualTo(32 * 1024 * 1024);
    }

    @Test
    void should_reject_a_limit_below_one_byte() {
        assertThatThrownBy(() -> new SseParser(new RecordingListener(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }
}
