package dev.goodput.transport.netty.internal;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayDeque;
import java.util.function.BiConsumer;

/**
 * The requests started on one of a transport's event loops during the read in hand (a closed loop's next request,
 * started by the read that ended the previous one), sent once that read is handled: the response's end usually
 * follows its {@code [DONE]} in the same read and frees a connection on that loop, which the request then takes
 * without a hand-off to another thread.
 */
final class LoopStarts {

    private final EventLoopGroup group;
    private final BiConsumer<ChannelExchange, EventLoop> send;
    private final FastThreadLocal<ArrayDeque<ChannelExchange>> waiting = new FastThreadLocal<>() {
        @Override
        protected ArrayDeque<ChannelExchange> initialValue() {
            return new ArrayDeque<>();
        }
    };

    /** {@code send} sends an exchange, preferring a connection of the given loop; it must not throw. */
    LoopStarts(EventLoopGroup group, BiConsumer<ChannelExchange, EventLoop> send) {
        this.group = group;
        this.send = send;
    }

    /** Holds the exchange until the read in hand is handled; returns false, holding nothing, off the loops. */
    boolean defer(ChannelExchange exchange) {
        EventLoop loop = currentLoop();
        if (loop == null) {
            return false;
        }
        ArrayDeque<ChannelExchange> held = waiting.get();
        if (held.isEmpty()) {
            // Sent when the read in hand completes; this task catches a start that came from no read, such as a
            // failed connect's callback.
            loop.execute(this::sendHeld);
        }
        held.add(exchange);
        return true;
    }

    /** Sends what this event loop holds; called once each read is handled. Event loop only. */
    void sendHeld() {
        ArrayDeque<ChannelExchange> held = waiting.get();
        if (held.isEmpty()) {
            return; // as after almost every read: nothing to look up, nothing allocated
        }
        EventLoop loop = currentLoop();
        for (ChannelExchange exchange = held.poll(); exchange != null; exchange = held.poll()) {
            send.accept(exchange, loop);
        }
    }

    private EventLoop currentLoop() {
        for (EventExecutor executor : group) {
            if (executor.inEventLoop()) {
                return (EventLoop) executor;
            }
        }
        return null;
    }
}
