package dev.goodput.core.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor under any client on this machine: the least a Java client must do to stamp every token when it
 * arrives. One thread, one NIO selector, a keep-alive connection per stream; each stream sends its request as
 * bytes written by hand, and on the end of a response sends the next one at once. Every read is stamped and
 * scanned for chunk openings, exactly as the benchmark's tap does for Goodput; nothing else is done with the bytes:
 * no HTTP or SSE parsing, no JSON, no recording. Only for the benchmark: it knows the simulated server's responses
 * (chunked, ending in {@code 0\r\n\r\n}) and handles nothing else.
 */
final class ReadFloor {

    /** The end of a chunked body whose last chunk ended with its own CRLF. */
    private static final long END_OF_BODY = pack("\r\n0\r\n\r\n");

    private static final long END_MASK = (1L << (8 * 7)) - 1;

    private final InetSocketAddress server;
    private final byte[] request;
    private final int outputTokens;

    ReadFloor(String host, int port, String model, int outputTokens) {
        this.server = new InetSocketAddress(host, port);
        this.outputTokens = outputTokens;
        this.request = requestBytes(host, port, model, outputTokens);
    }

    /** A streaming chat completion request of {@code outputTokens} tokens, head and body, written by hand. */
    static byte[] requestBytes(String host, int port, String model, int outputTokens) {
        String body = "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"floor\"}],"
                + "\"max_tokens\":" + outputTokens + ",\"ignore_eos\":true,\"stream\":true}";
        byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: "
                + bodyBytes.length + "\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[headBytes.length + bodyBytes.length];
        System.arraycopy(headBytes, 0, request, 0, headBytes.length);
        System.arraycopy(bodyBytes, 0, request, headBytes.length, bodyBytes.length);
        return request;
    }

    /**
     * One response's chunk stamps, and when the response before it on the same connection ended (the stamp of the
     * read that carried its end, after which this request was written at once), or 0 for a connection's first.
     */
    record Response(ChunkStamps stamps, long previousEndNanos) {}

    /** Runs {@code streams} streams of {@code rounds} requests each; returns every response. */
    List<Response> run(int streams, int rounds) throws IOException {
        List<Response> done = new ArrayList<>();
        ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
        try (Selector selector = Selector.open()) {
            List<SocketChannel> channels = new ArrayList<>();
            try {
                for (int i = 0; i < streams; i++) {
                    SocketChannel channel = SocketChannel.open(server);
                    channels.add(channel);
                    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    channel.configureBlocking(false);
                    Stream stream = new Stream(rounds);
                    channel.register(selector, SelectionKey.OP_READ, stream);
                    stream.send(channel, 0);
                }
                int open = streams;
                while (open > 0) {
                    selector.select();
                    for (SelectionKey key : selector.selectedKeys()) {
                        SocketChannel channel = (SocketChannel) key.channel();
                        Stream stream = (Stream) key.attachment();
                        buffer.clear();
                        int read = channel.read(buffer);
                        long nanos = System.nanoTime();
                        if (read < 0) {
                            throw new IOException("the server closed a connection mid-response");
                        }
                        buffer.flip();
                        stream.current.scan(buffer, nanos);
                        if (stream.ends.endsResponse(buffer)) {
                            done.add(new Response(stream.current, stream.previousEndNanos));
                            if (stream.roundsLeft > 0) {
                                stream.send(channel, nanos);
                            } else {
                                key.cancel();
                                open--;
                            }
                        }
                    }
                    selector.selectedKeys().clear();
                }
            } finally {
                for (SocketChannel channel : channels) {
                    channel.close();
                }
            }
        }
        return done;
    }

    private static long pack(String text) {
        long packed = 0;
        for (byte b : text.getBytes(StandardCharsets.US_ASCII)) {
            packed = (packed << 8) | (b & 0xFF);
        }
        return packed;
    }

    /** One keep-alive connection's state. */
    private final class Stream {
        int roundsLeft;
        ChunkStamps current;
        BodyEnd ends;
        long previousEndNanos;

        Stream(int rounds) {
            this.roundsLeft = rounds;
        }

        void send(SocketChannel channel, long afterEndNanos) throws IOException {
            roundsLeft--;
            current = new ChunkStamps(outputTokens);
            ends = new BodyEnd();
            previousEndNanos = afterEndNanos;
            ByteBuffer out = ByteBuffer.wrap(request);
            while (out.hasRemaining()) {
                channel.write(out); // a few hundred bytes: the socket's send buffer takes them at once
            }
        }
    }

    /** Finds the end of one chunked response body in its reads. */
    static final class BodyEnd {
        private long lastBytes;

        /** Whether the read ends the response: the last seven bytes seen are the chunked body's end. */
        boolean endsResponse(ByteBuffer read) {
            for (int i = read.position(); i < read.limit(); i++) {
                lastBytes = (lastBytes << 8) | (read.get(i) & 0xFF);
            }
            return (lastBytes & END_MASK) == END_OF_BODY;
        }
    }
}
