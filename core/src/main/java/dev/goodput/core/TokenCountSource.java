package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Where a request's output token count came from, in order of preference. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum TokenCountSource {
    /** {@code usage.completion_tokens} of the final usage event. */
    USAGE,
    /** The last cumulative count seen in continuous usage statistics (the final usage event never arrived). */
    CONTINUOUS_USAGE,
    /** A client-side tokenizer applied to the generated text. */
    CLIENT_TOKENIZER,
    /** The number of content events: one token per event is assumed. */
    CONTENT_EVENTS,
    /** No count exists, because the request produced no content. */
    NONE
}
