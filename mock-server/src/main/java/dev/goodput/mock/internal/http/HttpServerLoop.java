package dev.goodput.mock.internal.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A minimal non-blocking HTTP/1.1 server loop on one selector thread: accepts connections, reads and decodes
 * requests, hands each to the {@link RequestHandler}, and flushes output the sockets didn't take at once.
 *
 * <p>Why not {@code com.sun.net.httpserver}: it writes responses with blocking socket writes from the
 * handler's thread, so a thousand concurrent streams need a thousand threads or risk one slow client holding
 * a shared writer; and it can't drop a connection mid-stream without sending the terminating chunk, which the
 * dropped-connection fault needs. Here a stream's chunks are written from whatever thread has them, without
 * ever blocking.
 */
final class HttpServerLoop implements HttpConnection.EventLoop, AutoCloseable {

    /** Handles one decoded request; must eventually call {@link HttpConnection#endResponse} or close it. */
    interface RequestHandler {
        void handle(HttpRequest request, HttpConnection connection);
    }

    private final ServerSocketChannel server;
    private final Selector selector;
    private final RequestHandler handler;
    private final int maxConnections;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final List<HttpConnection> connections = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    HttpServerLoop(String host, int port, int maxConnections, RequestHandler handler) {
        this.handler = handler;
        this.maxConnections = maxConnections;
        try {
            this.selector = Selector.open();
            this.server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(host, port), 1024);
            server.configureBlocking(false);
            server.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            throw new UncheckedIOException("could not listen on " + host + ":" + port, e);
        }
        this.thread = new Thread(this::run, "goodput-mock-http");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.socket().getLocalPort();
    }

    /** Runs {@code task} on the loop thread, soon. */
    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        selector.wakeup();
    }

    private void run() {
        while (running) {
            try {
                selector.select(1000);
                for (Runnable task; (task = tasks.poll()) != null; ) {
                    task.run();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    try {
                        handleKey(key);
                    } catch (CancelledKeyException e) {
                        // Another thread closed the connection (a dropped-connection fault, say) since the select.
                        if (key.attachment() instanceof HttpConnection) {
                            ((HttpConnection) key.attachment()).close();
                        }
                    }
                }
                selector.selectedKeys().clear();
            } catch (IOException | RuntimeException e) {
                // A loop that dies takes every connection with it; keep serving and let the failing request
                // surface as a broken connection instead.
                System.getLogger(HttpServerLoop.class.getName())
                        .log(System.Logger.Level.WARNING, "mock server loop: " + e);
            }
        }
        connections.forEach(HttpConnection::close);
        try {
            selector.close();
        } catch (IOException ignored) {
            // Nothing left to release.
        }
    }

    private void handleKey(SelectionKey key) throws IOException {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            accept();
            return;
        }
        HttpConnection connection = (HttpConnection) key.attachment();
        if (key.isWritable()) {
            connection.flushPending();
        }
        if (key.isValid() && key.isReadable()) {
            read(connection);
        }
    }

    private void accept() throws IOException {
        for (SocketChannel channel; (channel = server.accept()) != null; ) {
            connections.removeIf(HttpConnection::isClosed);
            if (connections.size() >= maxConnections) {
                // Refuse rather than queue: a client told no at once is easier to diagnose than a hang.
                channel.close();
                continue;
            }
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            HttpConnection connection = new HttpConnection(channel, this);
            connection.attach(channel.register(selector, SelectionKey.OP_READ, connection));
            connections.add(connection);
        }
    }

    private void read(HttpConnection connection) {
        int read;
        try {
            ByteBuffer buffer = connection.inputForWriting(1024);
            read = connection.channel().read(buffer);
            buffer.flip();
        } catch (IOException e) {
            connection.close();
            return;
        }
        if (read < 0) {
            connection.close();
            return;
        }
        decodeRequests(connection);
    }

    @Override
    public void decodeRequests(HttpConnection connection) {
        if (connection.isResponding() || connection.isClosed()) {
            return;
        }
        ByteBuffer input = connection.input();
        HttpRequest request;
        try {
            request = HttpRequestDecoder.decode(input);
            if (request == null) {
                if (HttpRequestDecoder.expectsContinue(input) && connection.shouldSendContinue()) {
                    connection.send(ByteBuffer.wrap(HttpResponses.CONTINUE), null);
                }
                return;
            }
        } catch (HttpRequestDecoder.MalformedRequestException e) {
            connection.startResponding();
            connection.send(ByteBuffer.wrap(HttpResponses.error(e.status, e.getMessage(), false)), null);
            connection.endResponse(false);
            return;
        }
        connection.startResponding();
        try {
            handler.handle(request, connection);
        } catch (RuntimeException e) {
            // Never a stack trace to the client: a bug in a handler is a 500 with the exception's class name.
            connection.send(
                    ByteBuffer.wrap(HttpResponses.error(
                            500, "internal error: " + e.getClass().getSimpleName(), request.keepAlive())),
                    null);
            connection.endResponse(request.keepAlive());
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            server.close();
        } catch (IOException ignored) {
            // The listening socket is gone either way.
        }
        selector.wakeup();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
