package dev.goodput.transport.netty.internal;

import dev.goodput.core.testing.HttpHeads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 server on plain sockets that keeps connections alive and streams chunked SSE, counting the
 * connections it accepts and noting, by {@link System#nanoTime()}, when the first byte of each request arrived. A
 * request for 3 tokens ({@code "max_tokens":3}) gets one token and then nothing until the client closes.
 */
final class KeepAliveSseServer implements AutoCloseable {

    private static final String EVENT =
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}," + "\"finish_reason\":null}]}\n\n";
    private static final String LAST = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"y\"},"
            + "\"finish_reason\":\"length\"}]}\n\ndata: [DONE]\n\n";

    private final ServerSocket socket;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "keep-alive-sse-server");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Long> arrivals = new CopyOnWriteArrayList<>();
    final CountDownLatch heldClosed = new CountDownLatch(1);

    KeepAliveSseServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    int connections() {
        return connections.get();
    }

    List<Long> arrivals() {
        return arrivals;
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                connections.incrementAndGet();
                threads.execute(() -> serve(connection));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            InputStream in = connection.getInputStream();
            OutputStream out = connection.getOutputStream();
            while (true) {
                int first = in.read();
                if (first < 0) {
                    return;
                }
                arrivals.add(System.nanoTime());
                String head = (char) first + HttpHeads.readHead(in);
                String body = new String(in.readNBytes(HttpHeads.contentLength(head)), StandardCharsets.UTF_8);
                write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
                write(out, chunk(EVENT));
                if (body.replace(" ", "").contains("\"max_tokens\":3")) {
                    if (in.read() < 0) {
                        heldClosed.countDown();
                    }
                    return;
                }
                write(out, chunk(LAST) + "0\r\n\r\n");
            }
        } catch (IOException e) {
            // The client went away; nothing to do.
        }
    }

    private static String chunk(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return Integer.toHexString(bytes.length) + "\r\n" + text + "\r\n";
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        threads.shutdownNow();
    }
}
