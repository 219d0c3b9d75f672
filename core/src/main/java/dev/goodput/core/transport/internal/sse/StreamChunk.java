package dev.goodput.core.transport.internal.sse;

import dev.goodput.core.record.ServerTimings;

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
 * @param reasoningTokens {@code usage.completion_tokens_details.reasoning_tokens}, or -1 when absent
 * @param reasoning whether a choice carried non-empty {@code delta.reasoning_content} or {@code delta.reasoning}
 * @param answer whether a choice carried non-empty answer text: {@code text}, {@code delta.content}, {@code
 *     delta.refusal}, or a tool call's name or argument fragment
 * @param toolCallIndexes one bit per {@code delta.tool_calls[].index} the event carried (bit 0 for the legacy
 *     {@code delta.function_call}; indices of 63 and above share bit 63), 0 when none
 * @param model the top-level {@code model}, the model the server says it ran, when the decoder was asked for it
 *     ({@link ChunkDecoder#decode(SseEvent, boolean)}); else {@code null}
 */
public record StreamChunk(
        Kind kind,
        String text,
        int promptTokens,
        int completionTokens,
        boolean finalUsage,
        String finishReason,
        String detail,
        ServerTimings timings,
        int reasoningTokens,
        boolean reasoning,
        boolean answer,
        long toolCallIndexes,
        String model) {

    /** An event that names no model. */
    public StreamChunk(
            Kind kind,
            String text,
            int promptTokens,
            int completionTokens,
            boolean finalUsage,
            String finishReason,
            String detail,
            ServerTimings timings,
            int reasoningTokens,
            boolean reasoning,
            boolean answer,
            long toolCallIndexes) {
        this(
                kind,
                text,
                promptTokens,
                completionTokens,
                finalUsage,
                finishReason,
                detail,
                timings,
                reasoningTokens,
                reasoning,
                answer,
                toolCallIndexes,
                null);
    }

    /** An event without reasoning, tool calls or a reasoning count: its text, if any, is answer text. */
    public StreamChunk(
            Kind kind,
            String text,
            int promptTokens,
            int completionTokens,
            boolean finalUsage,
            String finishReason,
            String detail,
            ServerTimings timings) {
        this(
                kind,
                text,
                promptTokens,
                completionTokens,
                finalUsage,
                finishReason,
                detail,
                timings,
                -1,
                false,
                kind == Kind.CONTENT,
                0);
    }

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
