package dev.goodput.core.transport.internal.sse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.internal.redaction.TextCut;
import dev.goodput.core.transport.internal.sse.StreamChunk.Kind;
import java.io.IOException;
import java.util.StringJoiner;

/**
 * Decodes the data of one server-sent event of an OpenAI-compatible completion stream (vLLM, SGLang, TGI,
 * llama.cpp, Ollama) into what it means for measurement.
 *
 * <ul>
 *   <li>{@code [DONE]}, surrounding whitespace ignored, is {@link Kind#DONE}.
 *   <li>An event of type {@code "error"}, a non-null top-level {@code error} (an object with {@code
 *       message}, or a string), or the flat {@code {"object":"error","message":...}} of older vLLM and
 *       SGLang is {@link Kind#ERROR}; the detail is the message plus type, code and HTTP status when sent.
 *   <li>Data that is not one JSON object, or whose text carriers have an unexpected shape (see {@link
 *       ChunkFields}), is {@link Kind#MALFORMED}; the detail gives the reason and a short excerpt.
 *   <li>Otherwise the text is every choice's {@code text}, {@code delta.content}, {@code
 *       delta.reasoning_content}, {@code delta.reasoning} (Ollama) and {@code delta.refusal}, in order of
 *       appearance: non-empty is {@link Kind#CONTENT}, empty is {@link Kind#NO_CONTENT}.
 * </ul>
 *
 * <p>Tool-call deltas count as generated text: each {@code delta.tool_calls[].function.name} and {@code
 * .arguments} fragment (and the legacy {@code delta.function_call}) is appended to the text. A model that
 * streams a tool call generates tokens just as one that streams prose, so its first fragment is its first
 * token; a {@code CONTENT} chunk with empty text would contradict itself.
 *
 * <p>Each chunk also says which phase its text belongs to: reasoning ({@code delta.reasoning_content}, vLLM's
 * and SGLang's reasoning parsers, or {@code delta.reasoning}, Ollama's and newer vLLM's) or answer (content,
 * refusal, completions text, tool calls); one chunk can carry both when a parser releases the end of the
 * reasoning with the start of the answer. Tool calls are told apart by their {@code index}, and {@code
 * usage.completion_tokens_details.reasoning_tokens} (OpenAI's) is kept when sent.
 *
 * <p>Usage counts come from a non-null {@code usage}; the usage is final only when {@code choices} is
 * empty or absent, because vLLM's {@code continuous_usage_stats} puts cumulative usage on every chunk.
 *
 * <p>What a detail quotes of the data is redacted ({@link SecretRedaction}) before it is cut or quoted: when the
 * data of an error or a malformed event holds a secret, it is decoded again from its redacted text, so that no
 * message, the JSON parser's own included, quotes the secret or a piece of it. Content is not redacted: it is
 * counted, never shown.
 *
 * <p>{@link #decode(SseEvent)} never throws. Instances are immutable and thread-safe; the JSON factory
 * is shared, and each thread that decodes ASCII events has a parser of its own ({@link ReusedChunkParser}). A streaming parser is used rather than a tree: it skips what is not needed without building
 * nodes. In {@code SseParserBenchmark} a full decode costs about a fifth less CPU than a bare {@code
 * readTree} of the same chunk and allocates about a third as much.
 */
public final class ChunkDecoder {

    /** The longest excerpt of the event data that a {@code MALFORMED} detail quotes, in characters. */
    static final int EXCERPT_CHARS = TextCut.EVENT_EXCERPT.chars();

    /** The longest server error message an {@code ERROR} detail keeps, in characters. */
    static final int MAX_MESSAGE_CHARS = TextCut.SERVER_ERROR_MESSAGE.chars();

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(SseParser.DEFAULT_MAX_EVENT_BYTES)
                    .build())
            .build();

    /** Each reading thread's parser for the byte path, fed one event after another. */
    private static final ThreadLocal<ReusedChunkParser> PARSERS =
            ThreadLocal.withInitial(() -> new ReusedChunkParser(JSON));

    private static final StreamChunk DONE = new StreamChunk(Kind.DONE, "", -1, -1, false, null, null, null);

    private final SecretRedaction redaction;

    /** Creates a decoder that knows no key: its details lose only what looks like a secret. */
    public ChunkDecoder() {
        this(SecretRedaction.none());
    }

    /** Creates a decoder whose details never quote the key {@code redaction} knows, nor any piece of it. */
    public ChunkDecoder(SecretRedaction redaction) {
        this.redaction = redaction;
    }

    /**
     * Returns what an event means; never throws.
     *
     * @param event an event from {@link SseParser}
     * @return the decoded chunk, {@link Kind#MALFORMED} when the data cannot be read
     */
    public StreamChunk decode(SseEvent event) {
        return decode(event, false);
    }

    /**
     * Returns what an event means, with the model the chunk names when {@code wantModel} ({@link
     * StreamChunk#model()}); never throws.
     */
    public StreamChunk decode(SseEvent event, boolean wantModel) {
        if (event != null && !"error".equals(event.type())) {
            byte[] ascii = event.asciiBytes();
            StreamChunk chunk = ascii == null ? null : decodeAscii(ascii, wantModel);
            if (chunk != null) {
                return chunk;
            }
        }
        if (event == null || event.data() == null) {
            return malformed("event has no data", "");
        }
        String data = event.data();
        boolean errorEvent = "error".equals(event.type());
        if (!errorEvent && isDone(data)) {
            return DONE;
        }
        StreamChunk chunk = decodeText(data, errorEvent, wantModel);
        if (chunk.kind() == Kind.ERROR || chunk.kind() == Kind.MALFORMED) {
            String redacted = redaction.redact(data);
            if (!redacted.equals(data)) {
                chunk = decodeText(redacted, errorEvent, wantModel);
            }
        }
        return chunk;
    }

    private StreamChunk decodeText(String data, boolean errorEvent, boolean wantModel) {
        ChunkFields fields = new ChunkFields();
        fields.wantModel = wantModel;
        String problem;
        try (JsonParser parser = JSON.createParser(data)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                problem = "data is empty";
            } else if (first != JsonToken.START_OBJECT) {
                problem = "not a JSON object";
            } else {
                fields.readChunk(parser);
                problem = parser.nextToken() == null ? null : "trailing content after the JSON object";
            }
        } catch (ChunkFields.ShapeException e) {
            problem = e.getMessage();
        } catch (JsonProcessingException e) {
            problem = invalidJson(e);
        } catch (IOException | RuntimeException e) {
            // Defensive: a String source cannot fail with I/O, and Jackson reports bad input as above.
            problem = "could not be decoded (" + e.getClass().getSimpleName() + ")";
        }
        if (errorEvent) {
            return error(problem == null ? errorDetail(fields, data) : plainErrorDetail(data));
        }
        if (problem != null) {
            return malformed(problem, data);
        }
        if (fields.hasError || fields.objectIsError) {
            return error(errorDetail(fields, data));
        }
        return chunk(fields);
    }

    /**
     * Decodes an ASCII event that is one well-formed chunk straight from its bytes: Jackson's byte parser reads them
     * in place, where the string path copies the data into a string and the string into the parser's characters.
     * For ASCII data both read the same characters, so they decode the same chunk. Anything else ({@code [DONE]},
     * an error, data that is not a chunk) returns {@code null}, and the string path decodes it, so that every
     * detail is worded, and every offset counted, as before. The parser is this thread's {@link ReusedChunkParser},
     * fed one event after another.
     */
    private static StreamChunk decodeAscii(byte[] data, boolean wantModel) {
        if (data.length == 0 || data[0] != '{') {
            return null; // [DONE] and anything else that is not an object at once: the string path words it
        }
        ChunkFields fields = new ChunkFields();
        fields.wantModel = wantModel;
        ReusedChunkParser reused = PARSERS.get();
        boolean whole = false;
        try {
            JsonParser parser = reused.feed(data);
            if (parser.nextToken() == JsonToken.START_OBJECT) {
                fields.readChunk(parser);
                whole = reused.atEndOfData();
            }
        } catch (IOException | RuntimeException e) {
            whole = false;
        }
        if (!whole) {
            reused.discard(); // left inside or after a value: the next event gets a new parser
            return null;
        }
        return fields.hasError || fields.objectIsError ? null : chunk(fields);
    }

    private static StreamChunk chunk(ChunkFields fields) {
        String text = fields.text();
        return new StreamChunk(
                text.isEmpty() ? Kind.NO_CONTENT : Kind.CONTENT,
                text,
                fields.promptTokens,
                fields.completionTokens,
                fields.hasUsage && fields.choiceCount == 0,
                fields.finishReason,
                null,
                fields.timings,
                fields.reasoningTokens,
                fields.reasoningText,
                fields.answerText,
                fields.toolCallIndexes,
                fields.model);
    }

    private String invalidJson(JsonProcessingException e) {
        String where = e.getLocation() == null
                ? ""
                : " at character " + e.getLocation().getCharOffset();
        String why = e.getOriginalMessage() == null
                ? ""
                : " (" + redaction.cut(e.getOriginalMessage(), TextCut.JSON_PROBLEM) + ")";
        return "not valid JSON" + where + why;
    }

    /** Returns whether the data is {@code [DONE]}, ignoring surrounding whitespace, without a copy. */
    private static boolean isDone(String data) {
        int start = 0;
        int end = data.length();
        while (start < end && data.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && data.charAt(end - 1) <= ' ') {
            end--;
        }
        return end - start == 6 && data.startsWith("[DONE]", start);
    }

    private String errorDetail(ChunkFields fields, String data) {
        String message;
        StringJoiner attributes = new StringJoiner(", ", " (", ")").setEmptyValue("");
        if (fields.hasError) {
            message = fields.errorMessage;
            addAttribute(attributes, "type", fields.errorType != null ? fields.errorType : fields.topErrorType);
            addAttribute(attributes, "code", fields.errorCode);
            addAttribute(attributes, "http status", fields.errorHttpStatus);
        } else {
            // The flat shape of older vLLM and SGLang, and the bare object of older llama.cpp error events.
            message = fields.message;
            addAttribute(attributes, "type", fields.type != null ? fields.type : fields.topErrorType);
            addAttribute(attributes, "code", fields.code);
        }
        if (message == null || message.isBlank()) {
            return "error without a message: " + redaction.cut(data, TextCut.EVENT_EXCERPT)
                    + redaction.redact(attributes.toString());
        }
        return redaction.cut(message, TextCut.SERVER_ERROR_MESSAGE) + redaction.redact(attributes.toString());
    }

    private static void addAttribute(StringJoiner attributes, String name, String value) {
        if (value != null) {
            attributes.add(name + ": " + value);
        }
    }

    private String plainErrorDetail(String data) {
        String text = data.strip();
        return text.isEmpty() ? "error event without data" : redaction.cut(text, TextCut.SERVER_ERROR_MESSAGE);
    }

    private static StreamChunk error(String detail) {
        return new StreamChunk(Kind.ERROR, "", -1, -1, false, null, detail, null);
    }

    private StreamChunk malformed(String reason, String data) {
        String detail = data.isBlank() ? reason : reason + ": " + redaction.cut(data, TextCut.EVENT_EXCERPT);
        return new StreamChunk(Kind.MALFORMED, "", -1, -1, false, null, detail, null);
    }
}
