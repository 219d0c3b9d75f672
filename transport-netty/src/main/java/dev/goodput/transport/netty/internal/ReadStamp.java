package dev.goodput.transport.netty.internal;

import dev.goodput.core.NanoClock;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Reads the clock once per read from the socket, first in the pipeline (before TLS and HTTP decoding), so that
 * every event those bytes complete gets the instant they arrived, as the metric definitions require; the
 * {@link ResponseHandler} further on takes the reading from here. Event-loop only.
 */
final class ReadStamp extends ChannelInboundHandlerAdapter {

    private final NanoClock clock;
    private long nanos;

    ReadStamp(NanoClock clock) {
        this.clock = clock;
    }

    /** Returns the clock reading of the read being decoded. */
    long nanos() {
        return nanos;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        nanos = clock.nanoTime();
        context.fireChannelRead(message);
    }
}
