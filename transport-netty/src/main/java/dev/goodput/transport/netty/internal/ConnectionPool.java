package dev.goodput.transport.netty.internal;

import io.netty.channel.Channel;
import java.util.Deque;
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

    private final Deque<Channel> idle = new ConcurrentLinkedDeque<>();

    /** Returns an open idle connection, or {@code null} if there is none. */
    Channel poll() {
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
