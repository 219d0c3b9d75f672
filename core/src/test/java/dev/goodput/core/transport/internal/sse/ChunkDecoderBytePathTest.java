package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The decoder reads an ASCII event's JSON straight from the parser's bytes and everything else from the string. The
 * two paths must decode every event alike, detail for detail: these tests decode the same data both ways.
 */
class ChunkDecoderBytePathTest {

    private static final ChunkDecoder DECODER = new ChunkDecoder();

    private static final String CHAT_CHUNK =
            "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
                    + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"logprobs\":null,"
                    + "\"finish_reason\":null}]}";

    @Test
    void every_event_of_the_recorded_llama_server_streams_decodes_alike_from_bytes_and_from_its_string()
            throws IOException {
        int fromBytes = 0;
        int ascii = 0;
        for (String file : List.of(
                "chat-stream.sse",
                "chat-stream-usage.sse",
                "chat-stream-continuous-usage.sse",
                "chat-stream-no-cache-prompt.sse",
                "completions-stream.sse",
                "completions-stream-usage.sse",
                "over-context-chat-stream.sse",
                "over-context-completions-stream.sse")) {
            for (SseEvent event : parse(read("/real-streams/llama.cpp/" + file))) {
                assertAlike(event);
                fromBytes += event.asciiBytes() != null ? 1 : 0;
                ascii += event.data().chars().allMatch(c -> c < 128) ? 1 : 0;
            }
        }
        assertThat(fromBytes)
                .as("events read from their bytes")
                .isEqualTo(ascii)
                .isGreaterThan(40);
    }

    @Test
    void chunks_errors_and_damage_decode_alike_from_bytes_and_from_their_string() {
        List<String> data = List.of(
                CHAT_CHUNK,
                "[DONE]",
                "  [DONE]  ",
                "",
                "   ",
                "{\"choices\":[{\"index\":0,\"text\":\"a\\u00e9\\ud83d\\ude00\"}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"caf\u00e9 \ud83d\ude00\"}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"think\"}}],\"usage\":null}",
                "{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":9}}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":"
                        + "{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}",
                "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\",\"code\":500}}",
                "{\"object\":\"error\",\"message\":\"old vllm\",\"type\":\"BadRequestError\"}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":5}}]}",
                "{\"choices\":[{\"index\":0,\"delta\":\"no\"}]}",
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]} trailing",
                "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]",
                "[1,2]",
                "not json",
                "{\"usage\":{\"completion_tokens\":-1}}");
        for (String text : data) {
            assertAlike(SseEvent.ofUtf8(null, text.getBytes(StandardCharsets.UTF_8)));
            assertAlike(SseEvent.ofUtf8("error", text.getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Test
    void damaged_copies_of_a_chunk_decode_alike_from_bytes_and_from_their_string() {
        byte[] chunk = CHAT_CHUNK.getBytes(StandardCharsets.US_ASCII);
        SplittableRandom random = new SplittableRandom(15);
        for (int round = 0; round < 5_000; round++) {
            byte[] damaged = chunk.clone();
            int flips = 1 + random.nextInt(3);
            for (int f = 0; f < flips; f++) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
            }
            int cut = random.nextInt(4) == 0 ? random.nextInt(damaged.length + 1) : damaged.length;
            assertAlike(SseEvent.ofUtf8(null, java.util.Arrays.copyOf(damaged, cut)));
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // one thread: it has one parser
    void a_chunk_after_cut_or_damaged_data_decodes_as_if_it_came_first() {
        // The byte path feeds every event to one parser per thread: what a bad event leaves must not reach the next.
        StreamChunk expected = DECODER.decode(new SseEvent(null, CHAT_CHUNK));
        byte[] chunk = CHAT_CHUNK.getBytes(StandardCharsets.US_ASCII);
        for (int cut = 0; cut < chunk.length; cut++) {
            byte[] cutChunk = java.util.Arrays.copyOf(chunk, cut);
            assertThat(DECODER.decode(SseEvent.ofUtf8(null, cutChunk)).kind())
                    .as("the first %d bytes", cut)
                    .isIn(StreamChunk.Kind.MALFORMED, StreamChunk.Kind.CONTENT);
            assertThat(DECODER.decode(SseEvent.ofUtf8(null, chunk)))
                    .as("a whole chunk after the first %d bytes of one", cut)
                    .isEqualTo(expected);
        }
        for (String bad : List.of(CHAT_CHUNK + " {", CHAT_CHUNK + CHAT_CHUNK, CHAT_CHUNK + " trailing", "{\"a\":[1,")) {
            DECODER.decode(SseEvent.ofUtf8(null, bad.getBytes(StandardCharsets.US_ASCII)));
            assertThat(DECODER.decode(SseEvent.ofUtf8(null, chunk)))
                    .as("a whole chunk after %s", bad)
                    .isEqualTo(expected);
        }
    }

    private static void assertAlike(SseEvent event) {
        StreamChunk fromString = DECODER.decode(new SseEvent(event.type(), event.data()));
        assertThat(DECODER.decode(event))
                .as("decoded from the bytes of %s", event)
                .isEqualTo(fromString);
    }

    private static List<SseEvent> parse(byte[] stream) {
        List<SseEvent> events = new ArrayList<>();
        SseParser parser = new SseParser((event, nanos) -> events.add(event), SseParser.DEFAULT_MAX_EVENT_BYTES);
        try {
            parser.feed(stream, 0, stream.length, 0);
            parser.finish(0);
        } catch (SseFormatException e) {
            throw new AssertionError(e);
        }
        return events;
    }

    private static byte[] read(String resource) throws IOException {
        try (InputStream in = ChunkDecoderBytePathTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return in.readAllBytes();
        }
    }
}
