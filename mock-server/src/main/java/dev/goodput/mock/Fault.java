package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A fault the mock server can inject into a request, as named in its ground truth. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Fault {
    /** No fault: the request was served normally. */
    NONE("none", false),
    /** HTTP 429 with an error body (and {@code Retry-After} if configured), before any streaming. */
    HTTP_429("http-429", false),
    /** HTTP 500 with an error body, before any streaming. */
    HTTP_500("http-500", false),
    /** HTTP 503 with an error body (and {@code Retry-After} if configured), before any streaming. */
    HTTP_503("http-503", false),
    /** An in-band error event {@code data: {"error":{...}}} mid-stream, then {@code data: [DONE]}, as vLLM does. */
    STREAM_ERROR("stream-error", true),
    /** The connection is closed mid-stream without the stream's terminating chunk. */
    DROPPED_CONNECTION("drop", true),
    /** The stream stops for the configured stall duration mid-stream, then goes on. */
    STALL("stall", true),
    /** One chunk mid-stream carries malformed JSON; the stream then goes on. */
    MALFORMED_CHUNK("malformed-chunk", true),
    /** The stream ends without {@code data: [DONE]}. */
    MISSING_DONE("missing-done", true);

    private final String cliName;
    private final boolean midStream;

    Fault(String cliName, boolean midStream) {
        this.cliName = cliName;
        this.midStream = midStream;
    }

    /** Returns the fault's short name, as used by the command line ({@code --fault-<name>}) and in JSON. */
    public String cliName() {
        return cliName;
    }

    /**
     * Returns whether the fault happens inside a stream; such faults only apply to streaming requests, and a
     * non-streaming request drawn for one is served normally.
     */
    public boolean isMidStream() {
        return midStream;
    }
}
