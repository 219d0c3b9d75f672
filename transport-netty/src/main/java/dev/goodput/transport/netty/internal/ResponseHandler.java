package dev.goodput.transport.netty.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.StreamAttempt;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.EOFException;
import java.nio.ByteBuffer;

/**
 * Feeds one connection's responses into their attempts, on the connection's event loop as they are decoded: no
 * hand-off to another thread and no copy, each piece of body goes to the attempt as a view of Netty's buffer with
 * the clock reading of the socket read that carried it ({@link ReadStamp}). A response that ends with the
 * connection kept alive gives the connection back to the pool; anything else closes it.
 *
 * <p>An attempt that ended early ({@code [DONE]}, an error event) is still read to the end of its response, so
 * that its connection can be reused; the attempt ignores what comes after its end.
 */
final class ResponseHandler extends ChannelInboundHandlerAdapter {

    private final ReadStamp stamp;
    private final NanoClock clock;
    private final ReadTap tap;
    private final ConnectionPool pool;
    private final Runnable afterRead;

    // Event-loop only.
    private ChannelExchange current;
    private boolean keepAlive;

    /** {@code afterRead} runs on the event loop once each read is handled (it sends what the read started). */
    ResponseHandler(ReadStamp stamp, NanoClock clock, ReadTap tap, ConnectionPool pool, Runnable afterRead) {
        this.stamp = stamp;
        this.clock = clock;
        this.tap = tap;
        this.pool = pool;
        this.afterRead = afterRead;
    }

    /** Makes {@code exchange} the one the next response belongs to. Event loop only. */
    void begin(ChannelExchange exchange) {
        current = exchange;
        keepAlive = false;
    }

    /** Fails the current exchange, if any, and closes the connection. Event loop only. */
    void fail(Channel channel, Throwable cause) {
        ChannelExchange exchange = current;
        current = null;
        if (exchange != null) {
            exchange.end();
            exchange.attempt().onFailure(cause, clock.nanoTime());
        }
        channel.close();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object message) {
        try {
            ChannelExchange exchange = current;
            if (exchange == null || !(message instanceof HttpObject http)) {
                return;
            }
            if (http.decoderResult().isFailure()) {
                fail(context.channel(), http.decoderResult().cause());
                return;
            }
            StreamAttempt attempt = exchange.attempt();
            long nanos = stamp.nanos();
            if (message instanceof HttpResponse response) {
                keepAlive = HttpUtil.isKeepAlive(response);
                String retryAfter = response.headers().get(HttpHeaderNames.RETRY_AFTER);
                if (retryAfter != null) {
                    attempt.onRetryAfter(retryAfter);
                }
                attempt.onHeaders(
                        response.status().code(), response.headers().get(HttpHeaderNames.CONTENT_TYPE), nanos);
            }
            if (message instanceof HttpContent content) {
                ByteBuf bytes = content.content();
                if (bytes.isReadable()) {
                    ByteBuffer view = bytes.nioBufferCount() == 1
                            ? bytes.internalNioBuffer(bytes.readerIndex(), bytes.readableBytes())
                            : bytes.nioBuffer();
                    tap.onRead(attempt, view, nanos);
                    attempt.onBytes(view, nanos);
                }
                if (message instanceof LastHttpContent) {
                    finish(context, exchange);
                }
            }
        } finally {
            ReferenceCountUtil.release(message);
        }
    }

    private void finish(ChannelHandlerContext context, ChannelExchange exchange) {
        current = null;
        exchange.end();
        exchange.attempt().onEndOfStream(clock.nanoTime());
        if (keepAlive && !exchange.isAborted()) {
            pool.release(context.channel());
        } else {
            context.close();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext context) {
        afterRead.run();
        context.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        // A body delimited by the close has ended before this (the decoder emits its last content first), so an
        // exchange still here was cut short, or never got a response.
        if (current != null) {
            fail(context.channel(), new EOFException("the server closed the connection before the response ended"));
        }
        context.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        fail(context.channel(), cause);
    }
}
