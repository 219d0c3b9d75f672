package dev.goodput.core.shard.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Shard 0's side of the start barrier: a small HTTP server that answers clock readings and holds every check-in
 * until all shards have checked in. Open it with {@link StartBarrier#open}, read {@link #port()}, then call
 * {@link #await()} when shard 0 itself is ready; see {@link StartBarrier} for the protocol.
 *
 * <p>Once the start is agreed, the server stays up until the agreed start instant (at least a second), and then
 * until every shard has received its answer or another start margin has passed, so that slow and restarted shards
 * still get the instant; {@link #close()} does not cut that short.
 */
public final class BarrierCoordinator implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BarrierSettings settings;
    private final WallClock clock;
    private final CheckIns checkIns;
    private final ExecutorService handlers;
    private final HttpServer server;
    private final AtomicBoolean open = new AtomicBoolean(true);

    BarrierCoordinator(int count, String runId, int port, BarrierSettings settings, WallClock clock)
            throws InterruptedException {
        this.settings = settings;
        this.clock = clock;
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        this.checkIns = new CheckIns(runId, count, settings.startMargin().toNanos(), clock, settings.timeout());
        // Check-ins block in their handler until all shards are in, so each needs its own thread.
        this.handlers = Executors.newCachedThreadPool(StartBarrier::daemonThread);
        this.server = bind(port, deadline);
        server.createContext("/time", this::answerTime);
        server.createContext("/ready", this::answerReady);
        server.setExecutor(handlers);
        startOnDaemonThread();
    }

    /** Returns the port the coordinator listens on: the one asked for, or the one chosen for port 0. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** Returns the shards that have not checked in yet, in ascending order; shard 0 until {@link #await()}. */
    public List<Integer> missing() {
        return checkIns.missing();
    }

    /**
     * Checks shard 0 in and waits until every shard has checked in.
     *
     * @return the agreed start, with clock offset 0 and uncertainty 0
     * @throws StartBarrierException naming the shards that never checked in, if the timeout (counted from opening)
     *     passes first
     */
    public AgreedStart await() throws InterruptedException {
        long agreed;
        try {
            agreed = checkIns.checkInAndAwait(0);
        } catch (StartBarrierException | InterruptedException e) {
            close();
            throw e;
        }
        checkIns.answered(0);
        stopOnceAnswered(agreed);
        return new AgreedStart(agreed, 0, 0, agreed);
    }

    /**
     * Stops the server now if no start has been agreed yet (waiting shards are answered with an error first);
     * after agreement it leaves the server to stop by itself once every shard has its answer.
     */
    @Override
    public void close() {
        if (checkIns.isReleased() || !open.compareAndSet(true, false)) {
            return;
        }
        checkIns.fail("the coordinator closed before every shard checked in; missing: " + checkIns.missing());
        // A second lets the waiting handlers send that error before the connections close.
        server.stop(1);
        handlers.shutdownNow();
    }

    /**
     * Stops the server once the agreed start has come (at least a second after agreement), so that a shard
     * restarted meanwhile still gets its answer; then waits up to another start margin (at least a second) for any
     * shard that has not received its answer yet. The server has stopped long before a following gate opens its
     * coordinator, since this gate's run lies in between.
     */
    private void stopOnceAnswered(long agreedStartEpochNanos) {
        long oneSecond = Duration.ofSeconds(1).toNanos();
        long untilStart = Math.max(agreedStartEpochNanos - clock.epochNanos(), 0);
        long firstStop = System.nanoTime() + Math.max(untilStart, oneSecond);
        long lastStop = firstStop + Math.max(settings.startMargin().toNanos(), oneSecond);
        StartBarrier.daemonThread(() -> {
                    try {
                        TimeUnit.NANOSECONDS.sleep(firstStop - System.nanoTime());
                        checkIns.awaitAllAnswered(lastStop);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        server.stop(0);
                        handlers.shutdownNow();
                    }
                })
                .start();
    }

    private HttpServer bind(int port, long deadline) throws InterruptedException {
        while (true) {
            try {
                return HttpServer.create(new InetSocketAddress(port), 0);
            } catch (BindException e) {
                // The previous gate's coordinator may still be answering its last shards on this port.
                if (System.nanoTime() + settings.retryBackoff().toNanos() - deadline > 0) {
                    throw new StartBarrierException(
                            "the coordinator could not listen on port " + port + " within timeout = "
                                    + settings.timeout() + ": " + e,
                            e);
                }
                TimeUnit.NANOSECONDS.sleep(settings.retryBackoff().toNanos());
            } catch (IOException e) {
                throw new StartBarrierException("the coordinator could not listen on port " + port + ": " + e, e);
            }
        }
    }

    /** Starts the server from a daemon thread: its dispatcher thread inherits that, so it never holds the JVM. */
    private void startOnDaemonThread() throws InterruptedException {
        Thread starter = StartBarrier.daemonThread(server::start);
        starter.start();
        starter.join();
    }

    private void answerTime(HttpExchange exchange) throws IOException {
        // Read before anything else: the client assumes the reading is taken half-way through its round trip.
        long now = clock.epochNanos();
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            // In a header of a response without body: the server then writes it all at once. A body would be a
            // second small write, which Nagle's algorithm holds until the client's delayed ACK (~40 ms on Linux).
            exchange.getResponseHeaders().set(StartBarrier.TIME_HEADER, Long.toString(now));
            exchange.sendResponseHeaders(200, -1);
        }
    }

    private void answerReady(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                send(exchange, 405, "POST /ready expected, got " + exchange.getRequestMethod());
                return;
            }
            JsonNode body;
            try (InputStream in = exchange.getRequestBody()) {
                body = JSON.readTree(in);
            } catch (IOException e) {
                send(exchange, 400, "the check-in body is not JSON: " + e.getMessage());
                return;
            }
            if (!hasFields(body)) {
                send(exchange, 400, "the check-in body needs runId (text), index and count (integers): " + body);
                return;
            }
            int index = body.get("index").intValue();
            String refusal = checkIns.refusal(
                    body.get("runId").textValue(), index, body.get("count").intValue());
            if (refusal != null) {
                send(exchange, refusal.startsWith("runId") ? 409 : 400, refusal);
                return;
            }
            long agreed;
            try {
                agreed = checkIns.checkInAndAwait(index);
            } catch (StartBarrierException e) {
                send(exchange, 503, e.getMessage());
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                send(exchange, 503, "the coordinator stopped before every shard checked in");
                return;
            }
            send(exchange, 200, "{\"startEpochNanos\":" + agreed + "}");
            checkIns.answered(index);
        }
    }

    private static boolean hasFields(JsonNode body) {
        return body != null
                && body.path("runId").isTextual()
                && body.path("index").isInt()
                && body.path("count").isInt();
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String type = body.startsWith("{") ? "application/json" : "text/plain; charset=utf-8";
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
