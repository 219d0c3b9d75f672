package dev.goodput.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.testing.DirectRequests;
import dev.goodput.core.workload.RequestSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The send stamp is the instant the HTTP client asks for the body to write it, read from the transport's clock. */
class WrittenBodyTest {

    private final AtomicLong now = new AtomicLong(5_000);
    private final MeasuredAttempt attempt = new DirectRequests().send(0, RequestSpec.completion("x", 4), 1_000);
    private final WrittenBody body =
            new WrittenBody("{\"a\":1}".getBytes(StandardCharsets.UTF_8), attempt::onRequestWritten, now::get);
    private final List<String> seen = new ArrayList<>();
    private Flow.Subscription subscription;

    private final Flow.Subscriber<ByteBuffer> client = new Flow.Subscriber<>() {
        @Override
        public void onSubscribe(Flow.Subscription value) {
            subscription = value;
            seen.add("subscribed");
        }

        @Override
        public void onNext(ByteBuffer item) {
            seen.add("body " + StandardCharsets.UTF_8.decode(item));
        }

        @Override
        public void onError(Throwable failure) {
            seen.add("error " + failure.getMessage());
        }

        @Override
        public void onComplete() {
            seen.add("complete");
        }
    };

    @Test
    void should_stamp_the_send_when_the_client_asks_for_the_body_not_when_it_subscribes() {
        assertThat(body.contentLength()).isEqualTo(7);
        body.subscribe(client);
        now.set(7_000);
        assertThat(attempt.request().dispatchedNanos()).as("only subscribed").isEqualTo(1_000);

        subscription.request(1);
        subscription.request(1);

        assertThat(attempt.request().dispatchedNanos()).isEqualTo(7_000);
        assertThat(seen).containsExactly("subscribed", "body {\"a\":1}", "complete");
    }

    @Test
    void should_neither_stamp_nor_send_after_a_cancel_and_reject_a_non_positive_request() {
        body.subscribe(client);
        subscription.cancel();
        subscription.request(1);
        assertThat(attempt.request().dispatchedNanos()).isEqualTo(1_000);
        assertThat(seen).containsExactly("subscribed");

        body.subscribe(client);
        subscription.request(0);
        assertThat(seen).containsExactly("subscribed", "subscribed", "error request(0)");
        assertThat(attempt.request().dispatchedNanos()).isEqualTo(1_000);
    }
}
