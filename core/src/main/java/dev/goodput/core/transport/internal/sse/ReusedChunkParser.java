package dev.goodput.core.transport.internal.sse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;

/**
 * One JSON parser per reading thread, fed one event's data after another: Jackson's non-blocking parser reads a
 * sequence of root values, and keeps its contexts, text buffer and field-name table from one to the next. A parser
 * made per event allocated about 0.6 KB for these (its context objects, its buffers, its symbol table's child), more
 * than the rest of the decoding: {@code SseParserBenchmark} allocated 1,628 bytes per event parsed and decoded with
 * it, 993 with this (docs/performance.md).
 *
 * <p>The parser is only ever left between two complete root values. Data that ends inside a value, or has anything
 * but white space after it, or does not parse, makes {@link #discard()} the caller's next step, and the next event
 * gets a new parser. Inside a value, running out of input is an error here ({@link JsonParseException}), never the
 * non-blocking parser's {@code NOT_AVAILABLE} token, which loops written for a blocking parser would not expect.
 * Not thread-safe: {@link ChunkDecoder} holds one per thread.
 */
final class ReusedChunkParser {

    private final JsonFactory factory;
    private JsonParser parser;
    private ByteArrayFeeder feeder;
    private Guarded guarded;
    /** How many bytes this parser was fed before the current event's data. */
    private long fedBefore;

    /** The current event's data, whose end {@link #atEndOfData()} looks at. */
    private byte[] current;

    /** Parsers made by {@code factory}, one at a time. */
    ReusedChunkParser(JsonFactory factory) {
        this.factory = factory;
    }

    /**
     * Feeds one event's data as the next root value and returns the parser to read it with, positioned before its
     * first token.
     */
    JsonParser feed(byte[] data) throws IOException {
        if (parser == null || !feeder.needMoreInput()) {
            discard();
            parser = factory.createNonBlockingByteArrayParser();
            feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
            guarded = new Guarded(parser);
            fedBefore = 0;
        } else {
            fedBefore += current.length;
        }
        feeder.feedInput(data, 0, data.length);
        current = data;
        return guarded;
    }

    /**
     * Whether the event's data has nothing but white space after the root value just read, which is then passed
     * over. The bytes are looked at here: the non-blocking parser answers {@code NOT_AVAILABLE} for a token it has
     * only begun ({@code trailing} may yet become {@code true...}), where a blocking one would report it.
     */
    boolean atEndOfData() throws IOException {
        long end = parser.currentLocation().getByteOffset() - fedBefore;
        if (end < 0 || end > current.length) {
            return false;
        }
        for (int i = (int) end; i < current.length; i++) {
            byte b = current[i];
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return false;
            }
        }
        return parser.nextToken() == JsonToken.NOT_AVAILABLE;
    }

    /** Drops the parser, after data that it could not read to a root value's end. */
    void discard() {
        if (parser != null) {
            try {
                parser.close();
            } catch (IOException ignored) {
                // nothing to release: the input is a byte array
            }
        }
        parser = null;
        feeder = null;
        guarded = null;
        current = null;
    }

    /** The parser as a blocking one: {@code NOT_AVAILABLE} inside a value means the data was cut. */
    private static final class Guarded extends JsonParserDelegate {

        Guarded(JsonParser nonBlocking) {
            super(nonBlocking);
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken token = delegate.nextToken();
            if (token == JsonToken.NOT_AVAILABLE) {
                throw new JsonParseException(this, "the event's data ends inside a JSON value");
            }
            return token;
        }

        @Override
        public String nextFieldName() throws IOException {
            return nextToken() == JsonToken.FIELD_NAME ? currentName() : null;
        }
    }
}
