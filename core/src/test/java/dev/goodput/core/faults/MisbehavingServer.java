package dev.goodput.core.faults;

import dev.goodput.core.testing.HttpHeads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 server on plain sockets that misbehaves in ways the simulated server does not offer: a
 * client error status, headers that never come, a stream that never ends, a chunk of several megabytes. One
 * connection per request ({@code Connection: close}), so a behaviour owns its socket.
 */
final class MisbehavingServer implements AutoCloseable {

    /** What to write back for one request, after its headers and body were read. */
    @FunctionalInterface
    interface Behaviour {
        void respond(OutputStream out) throws IOException, InterruptedException;
    }

    /** What to write back for the n-th request (0-based, in arrival order). */
    @FunctionalInterface
    interface NumberedBehaviour {
        void respond(int arrival, OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket socket;
    private final ExecutorService connections = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "misbehaving-server");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger received = new AtomicInteger();

    MisbehavingServer(Behaviour behaviour) throws IOException {
        this((arrival, out) -> behaviour.respond(out));
    }

    MisbehavingServer(NumberedBehaviour behaviour) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        connections.execute(() -> acceptLoop(behaviour));
    }

    String baseUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** Returns how many requests arrived. */
    int received() {
        return received.get();
    }

    private void acceptLoop(NumberedBehaviour behaviour) {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connections.execute(() -> serve(connection, behaviour));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket connection, NumberedBehaviour behaviour) {
        try (connection) {
            InputStream in = connection.getInputStream();
            String head = HttpHeads.readHead(in);
            in.readNBytes(HttpHeads.contentLength(head));
            if (head.startsWith("GET /metrics ")) {
                // No Prometheus metrics here: the run's scraper notes it and asks no more; not a request under test.
                connection
                        .getOutputStream()
                        .write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                                .getBytes(StandardCharsets.ISO_8859_1));
                return;
            }
            behaviour.respond(received.getAndIncrement(), connection.getOutputStream());
        } catch (IOException | InterruptedException e) {
            // The client went away (a timeout under test) or the server is closing; nothing to do.
        }
    }

    /** Writes a status line and headers for a response whose body is delimited by closing the connection. */
    static void writeHead(OutputStream out, int status, String contentType) throws IOException {
        writeHead(out, status, contentType, "");
    }

    /** Like {@link #writeHead(OutputStream, int, String)} with extra header lines, each ending in CRLF. */
    static void writeHead(OutputStream out, int status, String contentType, String extraHeaders) throws IOException {
        out.write(("HTTP/1.1 " + status + " Status\r\nContent-Type: " + contentType + "\r\n" + extraHeaders
                        + "Connection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        connections.shutdownNow();
    }
}
