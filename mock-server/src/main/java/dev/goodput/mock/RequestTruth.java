package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * The server-side truth about one finished request: when it arrived, when each content chunk was meant to go
 * out and when it did, how it ended.
 *
 * <p>All instants are {@code System.nanoTime()} values of the server's JVM, so a client in the same JVM can
 * hold its own timestamps against them directly.
 *
 * @param id the request id as sent in the response ({@code chatcmpl-…} or {@code cmpl-…})
 * @param endpoint the request path, e.g. {@code /v1/chat/completions}
 * @param stream whether the response was streamed
 * @param arrivalNanos when the request had been read completely
 * @param promptTokens the prompt tokens by {@link WordTokenizer}'s rule
 * @param maxTokens the most output tokens the request allowed
 * @param completionTokens the output tokens generated
 * @param chunks the content chunks in order (for a non-streaming response, one entry per engine emission,
 *     all sent with the response body)
 * @param endNanos when the response had been written completely, or the connection closed
 * @param finishReason {@code "stop"}, {@code "length"}, {@code "tool_calls"} or {@code "abort"}; {@code "error"} for a response that
 *     ended with an error
 * @param fault the injected fault, {@link Fault#NONE} if none
 * @param status the HTTP status sent
 * @param reasoningTokens the leading output tokens sent as reasoning ({@link PerformanceModel#withReasoningTokens}),
 *     at most {@code completionTokens}; 0 for none
 * @param toolCalls the tool calls the answer made: 1 when the request carried {@code tools} and the answer began,
 *     else 0
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RequestTruth(
        String id,
        String endpoint,
        boolean stream,
        long arrivalNanos,
        int promptTokens,
        int maxTokens,
        int completionTokens,
        List<ChunkTiming> chunks,
        long endNanos,
        String finishReason,
        Fault fault,
        int status,
        int reasoningTokens,
        int toolCalls) {

    /** The truth of a request without reasoning or tool calls. */
    public RequestTruth(
            String id,
            String endpoint,
            boolean stream,
            long arrivalNanos,
            int promptTokens,
            int maxTokens,
            int completionTokens,
            List<ChunkTiming> chunks,
            long endNanos,
            String finishReason,
            Fault fault,
            int status) {
        this(
                id,
                endpoint,
                stream,
                arrivalNanos,
                promptTokens,
                maxTokens,
                completionTokens,
                chunks,
                endNanos,
                finishReason,
                fault,
                status,
                0,
                0);
    }

    /** Checks the fields and takes an unmodifiable copy of the chunks. */
    public RequestTruth {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(endpoint, "endpoint");
        chunks = List.copyOf(chunks);
        Objects.requireNonNull(finishReason, "finishReason");
        Objects.requireNonNull(fault, "fault");
    }

    /** Returns when the first content chunk was sent, if one was. */
    public OptionalLong firstTokenSentNanos() {
        return chunks.isEmpty() || chunks.get(0).sentNanos() < 0
                ? OptionalLong.empty()
                : OptionalLong.of(chunks.get(0).sentNanos());
    }

    /**
     * Returns when the first chunk carrying answer tokens (content or the tool call, after the reasoning) was sent,
     * if one was.
     */
    public OptionalLong firstAnswerSentNanos() {
        for (ChunkTiming chunk : chunks) {
            if (chunk.firstTokenIndex() + chunk.tokens() > reasoningTokens) {
                return chunk.sentNanos() < 0 ? OptionalLong.empty() : OptionalLong.of(chunk.sentNanos());
            }
        }
        return OptionalLong.empty();
    }

    /** Returns the time to first token as sent (first chunk sent minus arrival), if a chunk was sent. */
    public OptionalLong ttftNanos() {
        OptionalLong first = firstTokenSentNanos();
        return first.isPresent() ? OptionalLong.of(first.getAsLong() - arrivalNanos) : OptionalLong.empty();
    }
}
