package dev.goodput.core.transport.internal;

import dev.goodput.core.NanoClock;
import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;
import java.util.function.LongConsumer;

/**
 * A request body that notes when the HTTP client takes it to write: after the connection is ready and the request
 * headers have gone to it, so that instant is when the request leaves the client. The JDK client spends 0.2-1.5 ms
 * between {@code sendAsync} and this point (picking a connection, building and queueing the headers), which a
 * stamp taken before {@code sendAsync} would count as the server's time.
 */
final class WrittenBody implements HttpRequest.BodyPublisher {

    private final byte[] body;
    private final LongConsumer onWritten;
    private final NanoClock clock;

    WrittenBody(byte[] body, LongConsumer onWritten, NanoClock clock) {
        this.body = body;
        this.onWritten = onWritten;
        this.clock = clock;
    }

    @Override
    public long contentLength() {
        return body.length;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        subscriber.onSubscribe(new Flow.Subscription() {
            private boolean done;

            @Override
            public void request(long n) {
                if (done || n <= 0) {
                    if (!done && n <= 0) {
                        done = true;
                        subscriber.onError(new IllegalArgumentException("request(" + n + ")"));
                    }
                    return;
                }
                done = true;
                onWritten.accept(clock.nanoTime());
                subscriber.onNext(ByteBuffer.wrap(body));
                subscriber.onComplete();
            }

            @Override
            public void cancel() {
                done = true;
            }
        });
    }
}
