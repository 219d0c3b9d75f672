package dev.goodput.mock.internal.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.function.LongConsumer;

/**
 * One client connection: buffered input, a queue of output not yet accepted by the socket, and the state of
 * the response in progress.
 *
 * <p>Any thread may {@link #send} (the socket is non-blocking, so a sender never waits on a slow client: what
 * the socket doesn't take is queued and written by the server loop when the socket is writable). Reads and
 * request decoding happen on the server loop only.
 */
final class HttpConnection {

    /**
     * The server loop as a connection sees it; the loop implements it, so that a connection depends on these two
     * calls and not on the loop's class.
     */
    interface EventLoop {

        /** Runs {@code task} on the loop's thread. */
        void execute(Runnable task);

        /** Decodes and dispatches the connection's next buffered request unless a response is in progress. */
        void decodeRequests(HttpConnection connection);
    }

    private record Outbound(ByteBuffer bytes, LongConsumer onWritten) {}

    private final SocketChannel channel;
    private final EventLoop loop;
    private final ArrayDeque<Outbound> pending = new ArrayDeque<>();
    private SelectionKey key;
    private ByteBuffer input = ByteBuffer.allocate(2 * 1024).flip();
    private boolean responding;
    private boolean continueSent;
    private boolean closeWhenFlushed;
    private volatile boolean closed;
    private volatile Runnable onClose;

    HttpConnection(SocketChannel channel, EventLoop loop) {
        this.channel = channel;
        this.loop = loop;
    }

    void attach(SelectionKey key) {
        this.key = key;
    }

    boolean isClosed() {
        return closed;
    }

    /** Runs {@code action} once when the connection closes (client gone, dropped, or server stopping). */
    void onClose(Runnable action) {
        this.onClose = action;
        if (closed) {
            runOnClose();
        }
    }

    /**
     * Writes {@code bytes} (whole, in order with earlier sends) and then calls {@code onWritten} with the
     * {@code System.nanoTime()} at which the socket had accepted the last byte. Never blocks, and never keeps
     * {@code bytes}: what the socket doesn't take at once is copied, so callers may reuse their buffer.
     */
    void send(ByteBuffer bytes, LongConsumer onWritten) {
        boolean needsWriteInterest = false;
        synchronized (this) {
            if (closed) {
                return;
            }
            if (pending.isEmpty()) {
                try {
                    channel.write(bytes);
                } catch (IOException e) {
                    closeNow();
                    return;
                }
                if (!bytes.hasRemaining()) {
                    if (onWritten != null) {
                        onWritten.accept(System.nanoTime());
                    }
                    return;
                }
                needsWriteInterest = true;
            }
            ByteBuffer copy = ByteBuffer.allocate(bytes.remaining());
            copy.put(bytes).flip();
            pending.add(new Outbound(copy, onWritten));
        }
        if (needsWriteInterest) {
            loop.execute(() -> interest(SelectionKey.OP_READ | SelectionKey.OP_WRITE));
        }
    }

    /** Called by the loop when the socket is writable: writes what is queued. */
    void flushPending() {
        boolean drained;
        synchronized (this) {
            while (!pending.isEmpty()) {
                Outbound next = pending.peek();
                try {
                    channel.write(next.bytes);
                } catch (IOException e) {
                    closeNow();
                    return;
                }
                if (next.bytes.hasRemaining()) {
                    return;
                }
                pending.poll();
                if (next.onWritten != null) {
                    next.onWritten.accept(System.nanoTime());
                }
            }
            drained = true;
        }
        if (drained) {
            if (closeWhenFlushed) {
                close();
            } else {
                interest(SelectionKey.OP_READ);
            }
        }
    }

    /**
     * Ends the response in progress: the connection then reads the next request, or closes once its output is
     * flushed if the request asked for that.
     */
    void endResponse(boolean keepAlive) {
        loop.execute(() -> {
            if (closed) {
                return;
            }
            responding = false;
            onClose = null;
            if (!keepAlive) {
                synchronized (this) {
                    closeWhenFlushed = true;
                    if (!pending.isEmpty()) {
                        return;
                    }
                }
                close();
                return;
            }
            loop.decodeRequests(this);
        });
    }

    /** Closes the connection at once, dropping queued output (an abrupt end the client sees as a broken stream). */
    void close() {
        synchronized (this) {
            closeNow();
        }
    }

    private void closeNow() {
        if (closed) {
            return;
        }
        closed = true;
        pending.clear();
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing a socket the peer already reset can fail; it is closed either way.
        }
        runOnClose();
    }

    private void runOnClose() {
        Runnable action = onClose;
        onClose = null;
        if (action != null) {
            action.run();
        }
    }

    private void interest(int ops) {
        try {
            if (key != null && key.isValid()) {
                key.interestOps(ops);
            }
        } catch (CancelledKeyException e) {
            // Closed by another thread meanwhile: nothing left to write.
        }
    }

    // --- Loop-thread side: input.

    SocketChannel channel() {
        return channel;
    }

    ByteBuffer input() {
        return input;
    }

    /** Makes room for at least {@code bytes} more input; returns the buffer in write mode. */
    ByteBuffer inputForWriting(int bytes) {
        input.compact();
        if (input.remaining() < bytes) {
            ByteBuffer larger = ByteBuffer.allocate(Math.max(input.capacity() * 2, input.position() + bytes));
            input.flip();
            larger.put(input);
            input = larger;
        }
        return input;
    }

    boolean isResponding() {
        return responding;
    }

    void startResponding() {
        responding = true;
        continueSent = false;
    }

    /** Returns true the first time it is called for the request being read, so 100 Continue goes out once. */
    boolean shouldSendContinue() {
        if (continueSent) {
            return false;
        }
        continueSent = true;
        return true;
    }
}
