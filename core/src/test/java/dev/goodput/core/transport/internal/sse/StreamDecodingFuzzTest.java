package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the two places where a server's bytes become meaning: the SSE parser and the
 * chunk decoder. Neither may let an exception escape other than the parser's own {@link SseFormatException}
 * (which the client turns into a FAILED request with a reason), and neither may hold more than its size limit.
 *
 * <p>Without {@code JAZZER_FUZZ=1} each test only replays the inputs kept under {@code
 * src/test/resources/dev/goodput/core/transport/internal/sse/StreamDecodingFuzzTestInputs/<method>/}, which is what
 * {@code ./mvnw verify} runs. To fuzz for real: {@code JAZZER_FUZZ=1 ./mvnw -o test -pl core
 * -Dtest=StreamDecodingFuzzTest#<method>}; a crashing input is written to that directory, so commit it as a
 * regression input once fixed. See docs/reliability.md.
 */
class StreamDecodingFuzzTest {

    private static final ChunkDecoder DECODER = new ChunkDecoder();

    /** The decoder's longest reason: a message of 1000 characters, attributes and an excerpt, with room. */
    private static final int MAX_DETAIL_CHARS = 4_000;

    @FuzzTest(maxDuration = "60s")
    void sse_parser_only_ever_fails_with_its_format_exception_and_keeps_events_within_its_limit(
            FuzzedDataProvider data) {
        int limit = data.consumeInt(1, 512);
        SseParser parser = new SseParser(
                (event, receivedNanos) -> {
                    assertThat(event.data()).isNotNull();
                    // The limit is on the bytes read; each byte gives at most one char, but an invalid byte
                    // becomes U+FFFD, three bytes when encoded again (the fuzzer's first finding).
                    assertThat(event.data().length())
                            .as("chars of one event's data")
                            .isLessThanOrEqualTo(limit);
                },
                limit);
        try {
            while (data.remainingBytes() > 0) {
                byte[] piece = data.consumeBytes(data.consumeInt(0, 64));
                parser.feed(piece, 0, piece.length, 0);
            }
            parser.finish(0);
        } catch (SseFormatException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "60s")
    void chunk_decoder_never_throws_and_gives_every_chunk_a_kind_and_a_bounded_reason(FuzzedDataProvider data) {
        String type = data.consumeBoolean() ? "error" : null;
        StreamChunk chunk = DECODER.decode(new SseEvent(type, data.consumeRemainingAsString()));

        assertThat(chunk).isNotNull();
        assertThat(chunk.kind()).isNotNull();
        if (chunk.kind() == StreamChunk.Kind.MALFORMED || chunk.kind() == StreamChunk.Kind.ERROR) {
            assertThat(chunk.detail()).isNotBlank().hasSizeLessThanOrEqualTo(MAX_DETAIL_CHARS);
        }
    }

    // 30 s, not the others' 60: CI fuzzes this one on every run, and its 25-minute budget pays for each second.
    @FuzzTest(maxDuration = "30s")
    void parser_and_decoder_together_never_throw_on_a_whole_stream(byte[] stream) {
        SseParser parser = new SseParser((event, receivedNanos) -> DECODER.decode(event), 4096);
        try {
            parser.feed(stream, 0, stream.length, 0);
            parser.finish(0);
        } catch (SseFormatException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }
}
