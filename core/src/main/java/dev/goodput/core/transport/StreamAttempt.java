package dev.goodput.core.transport;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.workload.RequestSpec;
import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * One attempt of a request, as a {@link Transport} sees it: what to send, and the callbacks through which the
 * transport reports what came back. Goodput's side of each callback parses the stream, takes every timestamp the
 * metric definitions need and ends the attempt once; a transport only reports, in order: {@link #onRetryAfter} if
 * the header is present, {@link #onHeaders}, then {@link #onBytes} for each read, then {@link #onEndOfStream} or
 * {@link #onFailure}. Callbacks of one attempt never run concurrently; a callback after the end is ignored.
 *
 * <p>Every {@code nanos} is a reading of the run's {@link dev.goodput.core.NanoClock} taken as close to the event as
 * the transport can: for {@link #onBytes}, when the read completed, before any decoding.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public interface StreamAttempt {

    /** Returns what the request sends: its API, body, headers and sampling settings. */
    RequestSpec spec();

    /** Returns the attempt's number, starting at 1; a retried request's next attempt has the next number. */
    int number();

    /**
     * Returns the request's index in the run's schedule, from 0. A transport with several connection pools may use
     * it to spread requests evenly over them.
     */
    long requestIndex();

    /**
     * Returns whether this attempt sends again a request whose pooled connection the server closed before any
     * response. A transport with a connection pool should send it on a new connection: when a server closes its
     * connections after each stream, every idle one may be on its way out.
     */
    boolean isResentAfterClosedConnection();

    /** Notes the response's {@code Retry-After} header, before {@link #onHeaders}. */
    void onRetryAfter(String value);

    /**
     * The transport handed the request body to its connection: the request has left the client. Replaces the send
     * stamp taken when the attempt was started; a transport that cannot tell does not call it.
     */
    void onRequestWritten(long nanos);

    /** The response status and content type arrived ({@code responseContentType} may be null). */
    void onHeaders(int status, String responseContentType, long nanos);

    /**
     * Bytes of the body arrived in one read; {@code nanos} is the clock reading taken for that read. The buffer is
     * read before the call returns and may be reused by the transport afterwards.
     */
    void onBytes(ByteBuffer bytes, long nanos);

    /** The body ended normally (the connection or the response body closed). */
    void onEndOfStream(long nanos);

    /** The exchange failed: connection refused or lost, protocol error. */
    void onFailure(Throwable cause, long nanos);
}
