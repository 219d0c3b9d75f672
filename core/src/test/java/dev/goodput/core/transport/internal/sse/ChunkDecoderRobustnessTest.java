package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.transport.internal.sse.StreamChunk.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Feeds the decoder garbage and checks that it never throws and always returns a consistent chunk. */
class ChunkDecoderRobustnessTest {

    private static final String[] JSON_TOKENS = {
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        " ",
        "\"",
        "\\",
        "\"choices\"",
        "\"delta\"",
        "\"content\"",
        "\"text\"",
        "\"reasoning\"",
        "\"usage\"",
        "\"prompt_tokens\"",
        "\"completion_tokens\"",
        "\"error\"",
        "\"message\"",
        "\"object\"",
        "\"type\"",
        "\"code\"",
        "\"error_type\"",
        "\"finish_reason\"",
        "\"tool_calls\"",
        "\"function\"",
        "\"arguments\"",
        "\"name\"",
        "\"x\"",
        "\"é🚀\"",
        "1",
        "-1",
        "1.5",
        "1e999",
        "99999999999",
        "null",
        "true",
        "false",
        "[DONE]",
        "\u0000",
        "\uD800"
    };

    private final ChunkDecoder decoder = new ChunkDecoder();

    static Stream<String> garbage() {
        return Stream.of(
                "{",
                "}",
                "{\"choices\":[",
                "{\"choices\":[{\"delta\":{\"content\":\"unterminated",
                "[".repeat(100_000),
                "{\"a\":".repeat(50_000) + "1" + "}".repeat(50_000),
                "{\"choices\":" + "[".repeat(5_000) + "]".repeat(5_000) + "}",
                "\u0000",
                "\uFFFD\uFFFD",
                "NaN",
                "{\"usage\":{\"prompt_tokens\":1e999}}",
                "{\"usage\":{\"prompt_tokens\":" + "9".repeat(5_000) + "}}",
                "{\"choices\":[{\"delta\":{\"content\":\"\\ud800\"}}]}",
                "{\"a\":\"\\x\"}",
                "{'single':'quotes'}",
                "{\"a\":1,}",
                "{\"a\" 1}",
                "// comment\n{}",
                "{\"error\":[1,2,3]}",
                "{\"error\":{\"message\":null,\"code\":{\"deep\":[1]}}}",
                "{\"object\":{\"error\":true},\"message\":[\"x\"]}");
    }

    @ParameterizedTest(name = "garbage input #{index}")
    @MethodSource("garbage")
    void should_never_throw_on_garbage(String data) {
        assertConsistent(decoder.decode(new SseEvent(null, data)));
        assertConsistent(decoder.decode(new SseEvent("error", data)));
    }

    @Test
    void should_never_throw_on_random_json_token_soup() {
        SplittableRandom random = new SplittableRandom(42);
        List<Kind> kinds = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder data = new StringBuilder();
            int tokens = random.nextInt(40);
            for (int j = 0; j < tokens; j++) {
                data.append(JSON_TOKENS[random.nextInt(JSON_TOKENS.length)]);
            }
            StreamChunk chunk = decoder.decode(new SseEvent(null, data.toString()));
            assertConsistent(chunk);
            kinds.add(chunk.kind());
        }
        assertThat(kinds).contains(Kind.MALFORMED);
    }

    @Test
    void should_never_throw_on_mutated_real_chunks() throws Exception {
        List<String> chunks = new ArrayList<>();
        for (StreamFixtures.Fixture fixture : StreamFixtures.all()) {
            RecordingListener listener = new RecordingListener();
            SseParser parser = new SseParser(listener);
            parser.feed(fixture.bytes(), 0, fixture.bytes().length, 0);
            parser.finish(0);
            listener.received.forEach(event -> chunks.add(event.data()));
        }
        SplittableRandom random = new SplittableRandom(7);
        List<Kind> kinds = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder data = new StringBuilder(chunks.get(random.nextInt(chunks.size())));
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits && data.length() > 0; e++) {
                int at = random.nextInt(data.length());
                switch (random.nextInt(3)) {
                    case 0 -> data.deleteCharAt(at);
                    case 1 -> data.insert(at, JSON_TOKENS[random.nextInt(JSON_TOKENS.length)]);
                    default -> data.setCharAt(at, (char) random.nextInt(128));
                }
            }
            StreamChunk chunk = decoder.decode(new SseEvent(null, data.toString()));
            assertConsistent(chunk);
            kinds.add(chunk.kind());
        }
        // Mutations that keep the JSON valid still decode; the rest are reported, not thrown.
        assertThat(kinds).contains(Kind.MALFORMED, Kind.CONTENT, Kind.NO_CONTENT);
    }

    private static void assertConsistent(StreamChunk chunk) {
        assertThat(chunk).isNotNull();
        assertThat(chunk.kind()).isNotNull();
        assertThat(chunk.text()).isNotNull();
        assertThat(chunk.kind() == Kind.CONTENT).isEqualTo(!chunk.text().isEmpty());
        if (chunk.kind() == Kind.MALFORMED || chunk.kind() == Kind.ERROR) {
            assertThat(chunk.detail()).isNotBlank().hasSizeLessThan(1300);
            assertThat(chunk.hasUsage()).isFalse();
        } else {
            assertThat(chunk.detail()).isNull();
        }
    }
}
