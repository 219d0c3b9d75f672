package dev.goodput.core.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor under an open-loop client's send overhead on this machine: the least a Java client must do to send each
 * request at its intended start. The calling thread sleeps until each request's intended start (Poisson arrivals)
 * and writes the request's bytes, written by hand, on an idle keep-alive connection at once; a second thread reads
 * the responses on one NIO selector and hands each connection back when its response ends. No HTTP client, no
 * request building, no hand-off between the wake-up and the write. The connections are opened before the first
 * request, so that none of the overhead is a connect. Only for the benchmark, as {@link ReadFloor}.
 */
final class SendFloor {

    /** One request: when it was due, and its response's id (the server's truth is keyed by it). */
    record Sent(long intendedNanos, String id) {}

    private final InetSocketAddress server;
    private final byte[] request;
    private final int outputTokens;

    SendFloor(String host, int port, String model, int outputTokens) {
        this.server = new InetSocketAddress(host, port);
        this.outputTokens = outputTokens;
        this.request = ReadFloor.requestBytes(host, port, model, outputTokens);
    }

    /** Sends {@code requests} requests at {@code rate} a second, Poisson, on up to {@code connections} connections. */
    List<Sent> run(double rate, int requests, int connections, long seed) throws IOException, InterruptedException {
        ConcurrentLinkedDeque<SocketChannel> idle = new ConcurrentLinkedDeque<>();
        ConcurrentLinkedQueue<Sent> done = new ConcurrentLinkedQueue<>();
        AtomicInteger outstanding = new AtomicInteger(requests);
        List<SocketChannel> channels = new ArrayList<>();
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < connections; i++) {
                SocketChannel channel = SocketChannel.open(server);
                channels.add(channel);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ, new Connection());
                idle.add(channel);
            }
            Thread reader = new Thread(() -> read(selector, idle, done, outstanding), "send-floor-reader");
            reader.setDaemon(true);
            reader.start();
            Random random = new Random(seed);
            long due = System.nanoTime() + 50_000_000L;
            for (int i = 0; i < requests; i++) {
                due += (long) (-Math.log(1 - random.nextDouble()) / rate * 1e9);
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                SocketChannel channel = idle.pollLast();
                if (channel == null) {
                    throw new IllegalStateException("all " + connections + " connections busy at request " + i);
                }
                Connection connection = (Connection) channel.keyFor(selector).attachment();
                connection.begin(due);
                ByteBuffer out = ByteBuffer.wrap(request);
                while (out.hasRemaining()) {
                    channel.write(out);
                }
            }
            reader.join(60_000);
            if (outstanding.get() > 0) {
                throw new IllegalStateException(outstanding.get() + " responses did not end");
            }
        } finally {
            for (SocketChannel channel : channels) {
                channel.close();
            }
        }
        return new ArrayList<>(done);
    }

    private void read(
            Selector selector,
            ConcurrentLinkedDeque<SocketChannel> idle,
            ConcurrentLinkedQueue<Sent> done,
            AtomicInteger outstanding) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(64 * 1024);
        try {
            while (outstanding.get() > 0) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    SocketChannel channel = (SocketChannel) key.channel();
                    Connection connection = (Connection) key.attachment();
                    buffer.clear();
                    if (channel.read(buffer) < 0) {
                        throw new IOException("the server closed a connection mid-response");
                    }
                    buffer.flip();
                    connection.stamps.scan(buffer, System.nanoTime());
                    if (connection.ends.endsResponse(buffer)) {
                        done.add(new Sent(connection.intendedNanos, connection.stamps.id));
                        idle.addLast(channel);
                        outstanding.decrementAndGet();
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The request in flight on one connection; set by the sender before it writes, read by the reader after. */
    private final class Connection {
        volatile long intendedNanos;
        volatile ChunkStamps stamps;
        volatile ReadFloor.BodyEnd ends;

        void begin(long intended) {
            intendedNanos = intended;
            stamps = new ChunkStamps(outputTokens);
            ends = new ReadFloor.BodyEnd();
        }
    }
}
