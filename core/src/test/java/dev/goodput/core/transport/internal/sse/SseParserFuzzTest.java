package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Compares the parser on random streams, fed in random pieces, with a deliberately naive reference that
 * decodes the whole stream to a string first and then applies the spec's line rules literally.
 */
class SseParserFuzzTest {

    private static final String[] TOKENS = {
        "data", "event", "error", "id", "retry", "dat", ":", ":", " ", "  ", "\n", "\n", "\r", "\r\n", "x", "é", "世",
        "🚀", "[DONE]", "{}", "\uFEFF"
    };
    private static final String[] FIELDS = {"data", "data", "data", "event", "error", "id", "retry", ":", "", "x"};
    private static final String[] SEPARATORS = {":", ": ", ":  ", "", " :"};
    private static final String[] VALUES = {"x", " ", "é", "世", "🚀", ":", "[DONE]", "{\"a\":1}", "\uFEFF"};
    private static final String[] LINE_ENDS = {"\n", "\r", "\r\n", "\n\n", "\r\r", "\r\n\r\n", "\n\r"};

    @Test
    void should_match_a_naive_reference_parser_on_random_streams_in_random_pieces() throws Exception {
        int eventsCompared = 0;
        for (int seed = 0; seed < 10_000; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            String stream = randomStream(random);
            byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);

            RecordingListener listener = new RecordingListener();
            SseParser parser = new SseParser(listener);
            int position = 0;
            while (position < bytes.length) {
                int length = Math.min(bytes.length - position, random.nextInt(8));
                parser.feed(bytes, position, length, 0);
                position += length;
            }
            parser.finish(0);

            assertThat(listener.events())
                    .as("seed %d, stream %s", seed, escape(stream))
                    .isEqualTo(reference(stream));
            eventsCompared += listener.received.size();
        }
        // Guards against a generator that stopped producing events, which would make this test vacuous.
        assertThat(eventsCompared).isGreaterThan(5000);
    }

    /** Half of the streams are token soup, half are lines of fields with random values and line ends. */
    private static String randomStream(SplittableRandom random) {
        StringBuilder stream = new StringBuilder();
        if (random.nextBoolean()) {
            int tokens = random.nextInt(60);
            for (int i = 0; i < tokens; i++) {
                stream.append(pick(random, TOKENS));
            }
            return stream.toString();
        }
        if (random.nextInt(4) == 0) {
            stream.append('\uFEFF');
        }
        int lines = random.nextInt(20);
        for (int i = 0; i < lines; i++) {
            if (random.nextInt(3) > 0) {
                stream.append(pick(random, FIELDS)).append(pick(random, SEPARATORS));
                int values = random.nextInt(4);
                for (int j = 0; j < values; j++) {
                    stream.append(pick(random, VALUES));
                }
            }
            stream.append(pick(random, LINE_ENDS));
        }
        return stream.toString();
    }

    private static String pick(SplittableRandom random, String[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    /** The spec's algorithm on a decoded string, plus Goodput's error field and lenient end of stream. */
    private static List<SseEvent> reference(String stream) {
        List<SseEvent> events = new ArrayList<>();
        String text = stream.startsWith("\uFEFF") ? stream.substring(1) : stream;
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r' || c == '\n') {
                lines.add(text.substring(start, i));
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        lines.add(""); // finish dispatches a pending event as if a blank line had come

        StringBuilder data = null;
        String type = null;
        boolean error = false;
        for (String line : lines) {
            if (line.isEmpty()) {
                if (data != null) {
                    events.add(new SseEvent(error ? "error" : type, data.toString()));
                }
                data = null;
                type = null;
                error = false;
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String name = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (name) {
                case "event" -> type = value.isEmpty() ? null : value;
                case "data", "error" -> {
                    data = data == null
                            ? new StringBuilder(value)
                            : data.append('\n').append(value);
                    error |= name.equals("error");
                }
                default -> {}
            }
        }
        return events;
    }

    private static String escape(String text) {
        return text.replace("\r", "\\r").replace("\n", "\\n");
    }
}
