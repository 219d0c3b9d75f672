package dev.goodput.mock.internal.http;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * Brings a running server back to the state it started in, so that each of a gate's trials meets the same server:
 * an empty KV cache and prefix cache, zeroed {@code /metrics} counters and histograms, an empty ground truth, and
 * request positions from 0 again (the same faults and outputs for the same requests). It first waits until no
 * request is being served, then resets the engine at its next idle moment. The port, the connections, the
 * configuration and the request ids (unique for the server's life) stay.
 *
 * <p>Over HTTP it is {@code POST /debug/reset}, for a server out of the test's reach (a container); it answers
 * 200 once the server is reset, or 503 naming what was still running after {@link #HTTP_TIMEOUT}.
 */
final class ServerReset {

    /** The path of the reset endpoint. */
    static final String PATH = "/debug/reset";

    /** How long a reset asked for over HTTP waits for the server to be idle. */
    static final Duration HTTP_TIMEOUT = Duration.ofSeconds(60);

    private final ServerContext server;

    ServerReset(ServerContext server) {
        this.server = server;
    }

    /**
     * Waits until no request is in flight, then resets; one reset at a time.
     *
     * @throws TimeoutException if requests were still being served after {@code timeout}
     */
    synchronized void reset(Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long inFlight;
        while ((inFlight = server.truthLog().inFlight()) > 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException("the simulated server was still serving " + inFlight + " request(s) after "
                        + timeout + "; reset it when no load is running");
            }
            Thread.sleep(1);
        }
        server.engine().reset(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        server.truthLog().clear();
        server.metrics().reset(System.nanoTime(), server.engine().snapshot().busyNanos());
        server.requestPositions().set(0);
    }

    /**
     * Answers {@code POST /debug/reset}: resets on a thread of its own (the wait must not hold up the event loop)
     * and responds when done.
     */
    void respond(HttpRequest request, HttpConnection connection) {
        Thread worker = new Thread(
                () -> {
                    byte[] response;
                    try {
                        reset(HTTP_TIMEOUT);
                        response = HttpResponses.full(
                                200,
                                HttpResponses.JSON_TYPE,
                                HttpResponses.ascii("{\"reset\":true}"),
                                request.keepAlive(),
                                Map.of());
                    } catch (TimeoutException e) {
                        response = HttpResponses.error(503, e.getMessage(), request.keepAlive());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        response = HttpResponses.error(503, "the reset was interrupted", request.keepAlive());
                    } catch (RuntimeException e) {
                        response = HttpResponses.error(500, "the reset failed: " + e.getMessage(), request.keepAlive());
                    }
                    connection.send(ByteBuffer.wrap(response), null);
                    connection.endResponse(request.keepAlive());
                },
                "goodput-mock-reset");
        worker.setDaemon(true);
        worker.start();
    }
}
