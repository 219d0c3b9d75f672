package dev.goodput.core.transport.internal.sse;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.goodput.core.record.ServerTimings;
import java.io.IOException;

/**
 * The fields of one OpenAI-style stream chunk that matter for measurement, read in one pass with a
 * streaming {@link JsonParser}; everything else is skipped without being materialised.
 *
 * <p>The carriers of generated text must have the expected shape: {@code choices} an array of objects,
 * {@code delta} an object, {@code text}, {@code content}, {@code reasoning_content}, {@code reasoning} and
 * {@code finish_reason} strings, usage counts non-negative integers ({@code null} always allowed). Any
 * other shape throws {@link ShapeException}, because silently reading it as "no text" would corrupt the
 * measurement. Inside {@code tool_calls} the reader is lenient: it only collects function names and
 * argument fragments.
 *
 * <p>Longer than 300 lines because every field that matters is read in the one streaming pass over the chunk, where
 * it stands (text, reasoning, tool calls, usage and its reasoning count, errors); readers split off would have to
 * share this pass's state.
 */
final class ChunkFields {

    /** Signals JSON of an unexpected shape; carries the reason, no stack trace. */
    static final class ShapeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ShapeException(String reason) {
            super(reason, null, false, false);
        }
    }

    /** Whether {@code choices} was present and not {@code null}. */
    boolean hasChoices;

    int choiceCount;
    String finishReason;
    boolean hasUsage;
    int promptTokens = -1;
    int completionTokens = -1;

    /** Whether a non-null top-level {@code error} was present. */
    boolean hasError;

    String errorMessage;
    String errorType;
    String errorCode;
    String errorHttpStatus;

    /** Whether the top-level {@code object} is {@code "error"}: the flat error of older vLLM and SGLang. */
    boolean objectIsError;

    /** Top-level {@code message}, {@code type}, {@code code}, {@code error_type}: flat error fields. */
    String message;

    String type;
    String code;
    String topErrorType;

    private String text;
    private StringBuilder moreText;

    /** Whether a choice carried non-empty {@code delta.reasoning_content} or {@code delta.reasoning}. */
    boolean reasoningText;

    /** Whether a choice carried non-empty answer text: {@code text}, {@code content}, {@code refusal}, a tool call. */
    boolean answerText;

    /** One bit per tool call index seen in {@code delta.tool_calls} (indices 63 and above share bit 63). */
    long toolCallIndexes;

    /** {@code usage.completion_tokens_details.reasoning_tokens}, or -1 when absent. */
    int reasoningTokens = -1;

    /** The server's own timing of the request (llama.cpp's {@code timings}), or {@code null}. */
    ServerTimings timings;

    /** Whether to read {@code model}: only until a stream has named its model, so later chunks allocate nothing. */
    boolean wantModel;

    /** The top-level {@code model}, the model the server says it ran, when {@link #wantModel}; else {@code null}. */
    String model;

    /** Reads the object whose {@code START_OBJECT} token is the parser's current token. */
    void readChunk(JsonParser parser) throws IOException {
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken value = parser.nextToken();
            switch (name) {
                case "choices" -> readChoices(parser, value);
                case "usage" -> readUsage(parser, value);
                case "error" -> readError(parser, value);
                case "object" -> objectIsError = isErrorString(parser, value);
                case "message" -> message = scalar(parser, value);
                case "type" -> type = scalar(parser, value);
                case "code" -> code = scalar(parser, value);
                case "error_type" -> topErrorType = scalar(parser, value);
                case "timings" -> timings = TimingsReader.read(parser, value);
                case "model" -> {
                    if (wantModel) {
                        model = scalar(parser, value);
                    } else {
                        parser.skipChildren();
                    }
                }
                default -> parser.skipChildren();
            }
        }
    }

    /** Returns the generated text of all choices in the order it appeared, empty when none. */
    String text() {
        if (moreText != null) {
            return moreText.toString();
        }
        return text == null ? "" : text;
    }

    private void readChoices(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_ARRAY) {
            throw new ShapeException("choices is not an array");
        }
        hasChoices = true;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                throw new ShapeException("choices[" + choiceCount + "] is not an object");
            }
            readChoice(parser);
            choiceCount++;
        }
    }

    private void readChoice(JsonParser parser) throws IOException {
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken value = parser.nextToken();
            switch (name) {
                case "text" -> answerText |= appendText(stringOrNull(parser, value, "text"));
                case "delta" -> readDelta(parser, value);
                case "finish_reason" -> {
                    String reason = stringOrNull(parser, value, "finish_reason");
                    if (finishReason == null) {
                        finishReason = reason;
                    }
                }
                default -> parser.skipChildren();
            }
        }
    }

    private void readDelta(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_OBJECT) {
            throw new ShapeException("choices[" + choiceCount + "].delta is not an object");
        }
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken field = parser.nextToken();
            switch (name) {
                case "content", "refusal" -> answerText |= appendText(deltaStringOrNull(parser, field, name));
                case "reasoning_content", "reasoning" ->
                    reasoningText |= appendText(deltaStringOrNull(parser, field, name));
                case "tool_calls" -> readToolCalls(parser, field);
                case "function_call" -> {
                    toolCallIndexes |= 1L;
                    answerText |= readFunction(parser, field);
                }
                default -> parser.skipChildren();
            }
        }
    }

    private void readToolCalls(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.START_OBJECT) {
            // TGI 2.x streamed one tool call as an object rather than an array of them.
            readToolCall(parser, 0);
            return;
        }
        if (value != JsonToken.START_ARRAY) {
            parser.skipChildren();
            return;
        }
        int position = 0;
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                parser.skipChildren();
                continue;
            }
            // A call without an index (not OpenAI's shape, but seen in proxies) is named by its position.
            readToolCall(parser, position++);
        }
    }

    /** Reads one tool call, whose {@code START_OBJECT} is current; without an {@code index} it is its position. */
    private void readToolCall(JsonParser parser, int position) throws IOException {
        int index = position;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken field = parser.nextToken();
            if (name.equals("function")) {
                answerText |= readFunction(parser, field);
            } else if (name.equals("index")
                    && field == JsonToken.VALUE_NUMBER_INT
                    && parser.getNumberType() == JsonParser.NumberType.INT) {
                index = parser.getIntValue();
            } else {
                parser.skipChildren();
            }
        }
        toolCallIndexes |= 1L << Math.max(0, Math.min(63, index));
    }

    /** Reads a function's name and argument fragment as text; returns whether either was non-empty. */
    private boolean readFunction(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return false;
        }
        boolean any = false;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken field = parser.nextToken();
            if ((name.equals("name") || name.equals("arguments")) && field == JsonToken.VALUE_STRING) {
                any |= appendText(parser.getText());
            } else {
                parser.skipChildren();
            }
        }
        return any;
    }

    private void readUsage(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        if (value != JsonToken.START_OBJECT) {
            throw new ShapeException("usage is not an object");
        }
        hasUsage = true;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken field = parser.nextToken();
            switch (name) {
                case "prompt_tokens" -> promptTokens = tokenCount(parser, field, "usage.prompt_tokens");
                case "completion_tokens" -> completionTokens = tokenCount(parser, field, "usage.completion_tokens");
                case "completion_tokens_details" -> readCompletionDetails(parser, field);
                default -> parser.skipChildren();
            }
        }
    }

    /** Reads OpenAI's {@code completion_tokens_details}; only {@code reasoning_tokens} matters here. */
    private void readCompletionDetails(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return;
        }
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken field = parser.nextToken();
            if (name.equals("reasoning_tokens")) {
                reasoningTokens = tokenCount(parser, field, "usage.completion_tokens_details.reasoning_tokens");
            } else {
                parser.skipChildren();
            }
        }
    }

    private void readError(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        hasError = true;
        if (value != JsonToken.START_OBJECT) {
            errorMessage = scalar(parser, value);
            return;
        }
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken field = parser.nextToken();
            switch (name) {
                case "message" -> errorMessage = scalar(parser, field);
                case "type" -> errorType = scalar(parser, field);
                case "code" -> errorCode = scalar(parser, field);
                case "http_status_code" -> errorHttpStatus = scalar(parser, field);
                default -> parser.skipChildren();
            }
        }
    }

    /** Appends a fragment of generated text; returns whether it was non-empty. */
    private boolean appendText(String fragment) {
        if (fragment == null || fragment.isEmpty()) {
            return false;
        }
        if (text == null) {
            text = fragment;
        } else {
            if (moreText == null) {
                moreText = new StringBuilder(text);
            }
            moreText.append(fragment);
        }
        return true;
    }

    /** {@link #stringOrNull} for a field of {@code delta}, naming it only when it is wrong: most chunks are right. */
    private String deltaStringOrNull(JsonParser parser, JsonToken value, String name) throws IOException {
        return value == JsonToken.VALUE_STRING ? parser.getText() : stringOrNull(parser, value, "delta." + name);
    }

    private String stringOrNull(JsonParser parser, JsonToken value, String field) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return parser.getText();
        }
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        throw new ShapeException("choices[" + choiceCount + "]." + field + " is not a string");
    }

    private static int tokenCount(JsonParser parser, JsonToken value, String field) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return -1;
        }
        if (value != JsonToken.VALUE_NUMBER_INT
                || parser.getNumberType() != JsonParser.NumberType.INT
                || parser.getIntValue() < 0) {
            throw new ShapeException(field + " is not a non-negative integer");
        }
        return parser.getIntValue();
    }

    private static boolean isErrorString(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            parser.skipChildren();
            return false;
        }
        // Checking the length first spares a string per chunk: "chat.completion.chunk" is never "error".
        return parser.getTextLength() == 5 && parser.getText().equals("error");
    }

    /** Returns the text of a scalar value, or {@code null} for null and for structures (skipped). */
    private static String scalar(JsonParser parser, JsonToken value) throws IOException {
        if (value.isScalarValue() && value != JsonToken.VALUE_NULL) {
            return parser.getText();
        }
        parser.skipChildren();
        return null;
    }
}
