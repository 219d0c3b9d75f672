package dev.goodput.transport.netty.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.transport.Exchange;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.RequestBody;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.workload.ApiKind;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.URI;
import java.nio.channels.ClosedChannelException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * Sends streaming completion requests with Netty's HTTP/1.1 client codec over keep-alive connections to one
 * endpoint: the opt-in transport {@code goodput.client.transport=netty} (docs/transports.md).
 *
 * <p>Each connection lives on one event-loop thread (one per core, up to four, daemon), which writes its requests
 * and decodes, stamps and parses its responses as they come off the socket, with one clock reading per read
 * ({@link ReadStamp}) and no hand-off to another thread. The send stamp is the clock reading taken as the
 * request is flushed to the socket, after any connect and TLS handshake, kept once the write's promise says it
 * succeeded. Epoll is used where it is available, NIO elsewhere.
 *
 * <p>TLS trusts what the JDK trusts (its default trust store, or {@code javax.net.ssl.trustStore}) and checks the
 * server's name, as the JDK client does. The API key goes in an {@code Authorization} header and nowhere else.
 */
public final class NettyTransport implements Transport {

    /** One event-loop thread per core, up to four, as the JDK transport has one selector thread per core. */
    static final int EVENT_LOOP_THREADS =
            Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));

    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final ConnectionPool pool = new ConnectionPool();
    private final LoopStarts loopStarts;
    private final ServerEndpoint endpoint;
    /** Each API's request target, parsed once: {@code URI.create} per request was a tenth of the sending time. */
    private final Map<ApiKind, String> targets = new ConcurrentHashMap<>();

    private final NanoClock clock;
    private final String host;
    private final String hostHeader;
    private final String authorization;

    public NettyTransport(ServerEndpoint endpoint, NanoClock clock, ReadTap tap) {
        this.endpoint = endpoint;
        this.clock = clock;
        URI base = endpoint.baseUrl();
        boolean tls = "https".equalsIgnoreCase(base.getScheme());
        this.host = base.getHost();
        int port = base.getPort() >= 0 ? base.getPort() : tls ? 443 : 80;
        this.hostHeader = base.getPort() >= 0 ? host + ":" + port : host;
        this.authorization =
                endpoint.resolveApiKey().map(key -> "Bearer " + key).orElse(null);
        SslContext ssl = tls ? clientTls() : null;
        boolean epoll = epollAvailable();
        this.group = new MultiThreadIoEventLoopGroup(
                EVENT_LOOP_THREADS, new DefaultThreadFactory("goodput-netty", true), ioHandler(epoll));
        this.loopStarts = new LoopStarts(group, this::sendOrFail);
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .remoteAddress(host, port)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        Math.min(Integer.MAX_VALUE, endpoint.connectTimeout().toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        ReadStamp stamp = new ReadStamp(clock);
                        channel.pipeline().addLast(stamp);
                        if (ssl != null) {
                            channel.pipeline().addLast(ssl.newHandler(channel.alloc(), host, port));
                        }
                        channel.pipeline()
                                .addLast(new HttpClientCodec())
                                .addLast(new ResponseHandler(stamp, clock, tap, pool, loopStarts::sendHeld));
                    }
                });
    }

    /** Starts the attempt; one started on an event loop waits until that loop has handled its read. */
    @Override
    public Exchange start(StreamAttempt attempt) {
        ChannelExchange exchange = new ChannelExchange(attempt, request(attempt));
        if (!loopStarts.defer(exchange)) {
            sendOrConnect(exchange, null);
        }
        return exchange;
    }

    /** True: a start on an event loop only holds the request until the loop has handled the read in hand. */
    @Override
    public boolean startsOnReadThreadsCheaply() {
        return true;
    }

    /** Sends a held request; a start that throws fails its own request, not the read whose completion sends it. */
    private void sendOrFail(ChannelExchange exchange, EventLoop loop) {
        try {
            sendOrConnect(exchange, loop);
        } catch (RuntimeException e) {
            failBeforeSending(exchange, e);
        }
    }

    /** Sends on an idle connection, one of {@code loop}'s if there is one, or on a new one. */
    private void sendOrConnect(ChannelExchange exchange, EventLoop loop) {
        if (exchange.isAborted()) {
            exchange.request().release(); // cancelled before it went out: its attempt has ended already
            return;
        }
        // A request sent again because a pooled connection was closed under it goes out on a new connection: when
        // the server closes connections after each stream, every idle one may be on its way out.
        Channel idle = exchange.attempt().isResentAfterClosedConnection() ? null : pool.poll(loop);
        if (idle != null) {
            if (idle.eventLoop().inEventLoop()) {
                send(idle, exchange);
            } else {
                idle.eventLoop().execute(() -> send(idle, exchange));
            }
        } else {
            ChannelFuture connect = bootstrap.connect();
            connect.addListener(done -> {
                if (!done.isSuccess()) {
                    failBeforeSending(exchange, done.cause());
                    return;
                }
                Channel channel = connect.channel();
                pool.opened(channel);
                SslHandler tls = channel.pipeline().get(SslHandler.class);
                if (tls == null) {
                    send(channel, exchange);
                } else {
                    // Sent once the handshake is done, so that its stamp does not count the handshake.
                    tls.handshakeFuture().addListener(handshake -> {
                        if (handshake.isSuccess()) {
                            send(channel, exchange);
                        } else {
                            failBeforeSending(exchange, handshake.cause());
                            channel.close();
                        }
                    });
                }
            });
        }
    }

    /**
     * Writes the request on its connection's event loop. The send stamp is read just before the write: on the event
     * loop {@code writeAndFlush} goes down the pipeline to the socket's write at once, so that reading is when the
     * bytes are handed to the socket, and never after the server could have seen them (a reading taken when the
     * write's promise completes would be, on a loaded machine). It counts only if the write succeeds.
     */
    private void send(Channel channel, ChannelExchange exchange) {
        ResponseHandler handler = channel.pipeline().get(ResponseHandler.class);
        if (handler == null || !channel.isActive()) {
            // Closed by the server between leaving the pool and now: the request never went out.
            failBeforeSending(exchange, new ClosedChannelException());
            return;
        }
        if (!exchange.bind(channel)) {
            exchange.request().release();
            channel.close();
            return;
        }
        handler.begin(exchange);
        long sentNanos = clock.nanoTime();
        channel.writeAndFlush(exchange.request()).addListener(written -> {
            if (written.isSuccess()) {
                exchange.attempt().onRequestWritten(sentNanos);
            } else {
                handler.fail(channel, written.cause());
            }
        });
    }

    private void failBeforeSending(ChannelExchange exchange, Throwable cause) {
        if (exchange.request().refCnt() > 0) { // a write that was handed the request has released it
            exchange.request().release();
        }
        exchange.end();
        exchange.attempt().onFailure(cause, clock.nanoTime());
    }

    private FullHttpRequest request(StreamAttempt attempt) {
        String target = targets.computeIfAbsent(attempt.spec().api(), api -> {
            URI url = endpoint.apiUrl(api.path());
            return url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        });
        byte[] body = RequestBody.streaming(attempt, endpoint);
        FullHttpRequest request =
                new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target, Unpooled.wrappedBuffer(body));
        HttpHeaders headers = request.headers()
                .set(HttpHeaderNames.HOST, hostHeader)
                .set(HttpHeaderNames.CONTENT_TYPE, "application/json")
                .set(HttpHeaderNames.ACCEPT, "text/event-stream")
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        attempt.spec().headers().forEach(headers::add);
        if (authorization != null) {
            headers.set(HttpHeaderNames.AUTHORIZATION, authorization);
        }
        return request;
    }

    @Override
    public void close() {
        // No quiet period: the run has ended every request; closing the loops closes their connections.
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }

    /** Returns how many keep-alive connections are idle (for tests). */
    int idleConnections() {
        return pool.idleCount();
    }

    private static SslContext clientTls() {
        try {
            // The JDK's default trust managers and host-name check, as the JDK client's default SSLContext.
            return SslContextBuilder.forClient()
                    .endpointIdentificationAlgorithm("HTTPS")
                    .build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS for the Netty transport: " + e.getMessage(), e);
        }
    }

    private static boolean epollAvailable() {
        try {
            return Epoll.isAvailable();
        } catch (LinkageError absent) {
            // netty-transport-native-epoll excluded by the user: NIO it is.
            return false;
        }
    }

    private static IoHandlerFactory ioHandler(boolean epoll) {
        return epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }
}
