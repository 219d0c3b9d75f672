package dev.goodput.core.record;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Where a request's output token count came from, in order of preference: the first three are the server's count,
 * the others the client's.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum TokenCountSource {
    /** {@code usage.completion_tokens} of the final usage event (no choices), as vLLM sends it. */
    USAGE,
    /**
     * {@code usage.completion_tokens} of the event that carried the {@code finish_reason}, the stream's only usage
     * (llama.cpp's server sends it so): the server's final count.
     */
    FINISH_EVENT_USAGE,
    /**
     * The last cumulative count of continuous usage statistics (usage on every event): the stream ended without a
     * final usage event, so this is the count as of the last event that carried one.
     */
    CONTINUOUS_USAGE,
    /** A client-side tokenizer applied to the generated text. */
    CLIENT_TOKENIZER,
    /** The number of content events: one token per event is assumed. */
    CONTENT_EVENTS,
    /** No count exists, because the request produced no content. */
    NONE;

    /** Returns whether the count is the server's own ({@link #USAGE}, {@link #FINISH_EVENT_USAGE}, {@link #CONTINUOUS_USAGE}). */
    public boolean isServerCount() {
        return this == USAGE || this == FINISH_EVENT_USAGE || this == CONTINUOUS_USAGE;
    }
}
