package dev.goodput.core.run.internal;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The warm-up's server ({@link LoopbackWarmUp}): on the loopback interface, it answers every request on a keep-alive
 * connection with the same chunked event stream, one chunk per piece, each written at once. A thread per
 * connection; it reads a request's head to its blank line and then {@code Content-Length} bytes, which is all
 * Goodput's transports send.
 *
 * <p>Not the JDK's {@code com.sun.net.httpserver}: it writes a chunked response in several small writes without
 * {@code TCP_NODELAY} (which only a JVM-wide property turns on), so each response waited 20-40 ms for the client's
 * delayed acknowledgement: 3,000 requests took 19 s with the JDK client, and with Netty did not end within 30 s.
 */
final class LoopbackStreamServer implements AutoCloseable {

    private static final byte[] HEAD = ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
                    + "transfer-encoding: chunked\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final byte[][] chunks;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();

    private LoopbackStreamServer(ServerSocket server, byte[][] pieces) {
        this.server = server;
        this.chunks = new byte[pieces.length][];
        for (int k = 0; k < pieces.length; k++) {
            this.chunks[k] = chunk(pieces[k], k == 0 ? HEAD : new byte[0], k == pieces.length - 1);
        }
    }

    /** Starts serving {@code pieces} (the stream's body, one chunk each) on an ephemeral loopback port. */
    static LoopbackStreamServer start(byte[][] pieces) {
        try {
            LoopbackStreamServer started =
                    new LoopbackStreamServer(new ServerSocket(0, 64, InetAddress.getLoopbackAddress()), pieces);
            Thread acceptor = new Thread(started::accept, "goodput-warm-up-server");
            acceptor.setDaemon(true);
            acceptor.start();
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the client's warm-up server on the loopback interface", e);
        }
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.add(socket);
                Thread connection = new Thread(() -> serve(socket), "goodput-warm-up-connection");
                connection.setDaemon(true);
                connection.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            while (readRequest(in)) {
                for (byte[] chunk : chunks) {
                    out.write(chunk);
                }
            }
        } catch (IOException closed) {
            // the client closed the connection, or close() did
        } finally {
            connections.remove(socket);
        }
    }

    /** Reads one request whole; returns false at the end of the connection before a request. */
    private static boolean readRequest(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int contentLength = 0;
        boolean any = false;
        for (int b = in.read(); ; b = in.read()) {
            if (b < 0) {
                if (any) {
                    throw new EOFException("the connection ended within a request");
                }
                return false;
            }
            any = true;
            if (b != '\n') {
                line.append((char) b);
                continue;
            }
            String header = line.toString().strip();
            line.setLength(0);
            if (header.isEmpty()) {
                break;
            }
            if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                contentLength = Integer.parseInt(
                        header.substring("content-length:".length()).strip());
            }
        }
        in.skipNBytes(contentLength); // EOFException if the connection ends first
        return true;
    }

    /** One chunk of the body, after {@code prefix}, followed by the last chunk if {@code last}. */
    private static byte[] chunk(byte[] piece, byte[] prefix, boolean last) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(prefix);
        bytes.writeBytes((Integer.toHexString(piece.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        bytes.writeBytes(piece);
        bytes.writeBytes((last ? "\r\n0\r\n\r\n" : "\r\n").getBytes(StandardCharsets.US_ASCII));
        return bytes.toByteArray();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing: nothing more to serve
        }
        for (Socket socket : connections) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }
}
