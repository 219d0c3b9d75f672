package dev.goodput.core.internal.sse;

import dev.goodput.core.ServerTimings;

/**
 * What one SSE event of an OpenAI-compatible completion stream means for measurement.
 *
 * @param kind what the event is
 * @param text the generated text it carries (all choices' {@code text}, {@code delta.content}, {@code
 *     delta.reasoning_content}, {@code delta.reasoning}, {@code delta.refusal} and tool-call names and
 *     argument fragments, concatenated in order of appearance), empty when none
 * @param promptTokens {@code usage.prompt_tokens}, or -1 when the event has no usage
 * @param completionTokens {@code usage.completion_tokens}, or -1 when the event has no usage
 * @param finalUsage whether this is the final usage event: usage present and {@code choices} empty
 * @param finishReason the first non-null {@code finish_reason} among the choices, or {@code null}
 * @param detail for {@link Kind#ERROR} the server's message; for {@link Kind#MALFORMED} why the event could
 *     not be read; else {@code null}
 * @param timings the server's own timing of the request ({@code timings}, which llama.cpp's server puts on its
 *     last chunk), or {@code null}
 */
public record StreamChunk(
        Kind kind,
        String text,
        int promptTokens,
        int completionTokens,
        boolean finalUsage,
        String finishReason,
        String detail,
        ServerTimings timings) {

    /** What an event is. */
    public enum Kind {
        /** Carries non-empty generated text. */
        CONTENT,
        /** A well-formed event without generated text: role-only delta, finish-only chunk, usage chunk. */
        NO_CONTENT,
        /** The {@code [DONE]} sentinel. */
        DONE,
        /** An error object inside the stream. The request failed even though the HTTP status was 200. */
        ERROR,
        /** Not valid JSON, or JSON of an unexpected shape. */
        MALFORMED
    }

    /** Returns whether the event carries usage counts. */
    public boolean hasUsage() {
        return completionTokens >= 0 || promptTokens >= 0;
    }
}
