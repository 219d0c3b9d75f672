package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The server under test failed the preflight that {@link Goodput#run(RunSpec)} makes before any load: it did not
 * answer, did not serve the model, or did not stream one small request to its end. No load was sent.
 *
 * <p>The message says what was tried and what came back, for example {@code "preflight failed: POST
 * http://127.0.0.1:8000/v1/chat/completions: HTTP 404: The model `llama` does not exist."}. It never contains the
 * API key: a server that echoes it has it replaced by {@code [redacted API key]}.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class PreflightException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String request;
    private final String reason;

    /**
     * @param request what was tried: the method and URL, for example {@code "GET http://127.0.0.1:8000/v1/models"}
     * @param reason what came back: the status and the server's message, or the connection error
     */
    public PreflightException(String request, String reason) {
        super("preflight failed: " + Objects.requireNonNull(request, "request") + ": "
                + Objects.requireNonNull(reason, "reason"));
        this.request = request;
        this.reason = reason;
    }

    /** Returns what was tried: the method and the URL. */
    public String request() {
        return request;
    }

    /** Returns what came back: the status and the server's message, or the connection error. */
    public String reason() {
        return reason;
    }
}
