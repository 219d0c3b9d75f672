package dev.goodput.transport.netty.internal;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The idle keep-alive connections to the one endpoint of a transport. Unbounded: the load driver already caps
 * how many requests are in flight, so a request never waits for a connection, it opens one. The most recently
 * released connection goes out first (its TCP state and the server's keep-alive timer are the freshest).
 *
 * <p>A connection the server closes while idle leaves the pool when its close is seen; one it closes just as a
 * request is written fails that request before any response, which the request then sends again on a new
 * connection (a connection retry, as with the JDK client). Thread-safe.
 */
final class ConnectionPool {

    private final ConcurrentLinkedDeque<Channel> idle = new ConcurrentLinkedDeque<>();

    /** How many of the most recently released connections {@link #poll(EventLoop)} looks through for its loop's. */
    private static final int SAME_LOOP_SEARCH = 8;

    /**
     * Returns an open idle connection, or {@code null} if there is none. One of {@code loop}'s (if not null) goes
     * first, among the few most recently released: a request written on the thread that started it needs no
     * hand-off.
     */
    Channel poll(EventLoop loop) {
        if (loop != null) {
            Iterator<Channel> recent = idle.descendingIterator();
            for (int k = 0; k < SAME_LOOP_SEARCH && recent.hasNext(); k++) {
                Channel channel = recent.next();
                if (channel.eventLoop() == loop && channel.isActive() && idle.removeLastOccurrence(channel)) {
                    return channel;
                }
            }
        }
        for (Channel channel = idle.pollLast(); channel != null; channel = idle.pollLast()) {
            if (channel.isActive()) {
                return channel;
            }
        }
        return null;
    }

    /** Notes a connection that was just opened, so that its close takes it out of the pool. */
    void opened(Channel channel) {
        channel.closeFuture().addListener(closed -> idle.remove(channel));
    }

    /** Takes back a connection whose response ended with the connection kept alive. */
    void release(Channel channel) {
        if (channel.isActive()) {
            idle.addLast(channel);
        }
    }

    /** Returns how many connections are idle (for tests). */
    int idleCount() {
        return idle.size();
    }
}
