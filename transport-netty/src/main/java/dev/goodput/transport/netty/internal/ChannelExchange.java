package dev.goodput.transport.netty.internal;

import dev.goodput.core.transport.Exchange;
import dev.goodput.core.transport.StreamAttempt;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.FullHttpRequest;

/**
 * One attempt's exchange on a connection: the request to write, the attempt to feed, and the abort. Aborting
 * closes the connection (a response cut short cannot be reused); one that ended already is back in the pool or
 * closed, and aborting it does nothing.
 */
final class ChannelExchange implements Exchange {

    private final StreamAttempt attempt;
    private final FullHttpRequest request;
    private volatile Channel channel;
    private volatile boolean aborted;
    private volatile boolean ended;

    ChannelExchange(StreamAttempt attempt, FullHttpRequest request) {
        this.attempt = attempt;
        this.request = request;
    }

    StreamAttempt attempt() {
        return attempt;
    }

    /** Returns the request; the first write releases it, so call once. */
    FullHttpRequest request() {
        return request;
    }

    /**
     * Binds the exchange to its connection, on that connection's event loop.
     *
     * @return false if the exchange was aborted meanwhile (the caller closes the connection)
     */
    boolean bind(Channel value) {
        channel = value;
        // Read after the write above: an abort that missed the channel has set this flag already.
        return !aborted;
    }

    /** Notes that the response ended (or failed): a later abort must not close a connection back in the pool. */
    void end() {
        ended = true;
    }

    boolean isAborted() {
        return aborted;
    }

    @Override
    public void abort() {
        aborted = true;
        Channel bound = channel;
        if (bound != null && !ended) {
            bound.close();
        }
    }
}
