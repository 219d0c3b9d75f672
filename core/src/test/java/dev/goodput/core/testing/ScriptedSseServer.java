package dev.goodput.core.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A small streaming server on loopback for end-to-end tests of the client: it answers every POST with a
 * scripted vLLM-style SSE stream, sleeping between events, and remembers what it received.
 */
public final class ScriptedSseServer implements AutoCloseable {

    /** What to do with the n-th request (0-based, in arrival order). */
    public record Script(int status, long ttftMillis, long tpotMillis, int tokens, boolean errorMidStream) {
        public static Script stream(long ttftMillis, long tpotMillis, int tokens) {
            return new Script(200, ttftMillis, tpotMillis, tokens, false);
        }
    }

    /** One received request. */
    public record Received(String path, String authorization, String body, Map<String, List<String>> headers) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger arrivals = new AtomicInteger();

    public ScriptedSseServer(IntFunction<Script> script) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", exchange -> handle(exchange, script.apply(arrivals.getAndIncrement())));
        // No Prometheus metrics, as many servers have none: runs note it and scrape no more, and the scrape is
        // neither numbered nor remembered, so the scripts and the received requests are the load's alone.
        server.createContext("/metrics", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(404, -1);
            }
        });
        server.start();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    private void handle(HttpExchange exchange, Script script) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        received.add(new Received(
                exchange.getRequestURI().getPath(),
                exchange.getRequestHeaders().getFirst("Authorization"),
                body,
                Map.copyOf(exchange.getRequestHeaders())));
        try (exchange) {
            if (script.status() != 200) {
                byte[] error = ("{\"error\":{\"message\":\"scripted failure\",\"type\":\"InternalServerError\","
                                + "\"param\":null,\"code\":" + script.status() + "}}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(script.status(), error.length);
                exchange.getResponseBody().write(error);
                return;
            }
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            sleep(script.ttftMillis());
            send(out, SseText.roleChunk());
            for (int i = 0; i < script.tokens(); i++) {
                if (i > 0) {
                    sleep(script.tpotMillis());
                }
                if (script.errorMidStream() && i == script.tokens() / 2) {
                    send(out, SseText.errorEvent("scripted error") + SseText.DONE);
                    return;
                }
                send(out, SseText.contentChunk(" w" + i, i == script.tokens() - 1 ? "length" : null));
            }
            send(out, SseText.usageChunk(12, script.tokens()) + SseText.DONE);
        } catch (IOException e) {
            // The client went away (a timeout or cancellation under test); nothing to do.
        }
    }

    private static void send(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
