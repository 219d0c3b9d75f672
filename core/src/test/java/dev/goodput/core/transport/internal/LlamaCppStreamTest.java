package dev.goodput.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.ServerTimings;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.workload.RequestSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Streams recorded from a real llama-server (core/src/test/resources/real-streams/llama.cpp, README there), fed
 * through one attempt as they arrived: the token count's source says where the count came from, and the server's
 * own timings are kept.
 */
class LlamaCppStreamTest {

    private static final long MS = 1_000_000;
    private final List<RequestRecord> records = new ArrayList<>();

    @Test
    void should_count_a_completions_stream_by_the_usage_on_its_finishing_event() throws IOException {
        RequestRecord record = replay("completions-stream.sse");

        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.outputTokens()).isEqualTo(6);
        assertThat(record.outputTokenSource()).isEqualTo(TokenCountSource.FINISH_EVENT_USAGE);
        assertThat(record.serverPromptTokens()).isEqualTo(4);
        assertThat(record.serverTimings()).isEqualTo(new ServerTimings(1, 3, 6.885, 6, 26.536, 5.3072));
    }

    @Test
    void should_count_a_chat_stream_by_its_final_usage_event_and_keep_the_timings_on_it() throws IOException {
        RequestRecord record = replay("chat-stream-usage.sse");

        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.outputTokens()).isEqualTo(6);
        assertThat(record.outputTokenSource()).isEqualTo(TokenCountSource.USAGE);
        assertThat(record.serverPromptTokens()).isEqualTo(18);
        assertThat(record.serverTimings().cachedPromptTokens()
                        + record.serverTimings().promptTokens())
                .isEqualTo(18);
        assertThat(record.serverTimings().predictedMillisPerToken())
                .isCloseTo(4.0234, org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    void should_fall_back_to_content_events_when_the_server_sends_no_usage() throws IOException {
        RequestRecord record = replay("chat-stream.sse");

        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.outputTokenSource()).isEqualTo(TokenCountSource.CONTENT_EVENTS);
        assertThat(record.outputTokens()).isEqualTo(record.contentEvents());
        assertThat(record.serverTimings()).as("timings come without usage too").isNotNull();
    }

    /** Feeds the recorded stream one event per read, 5 ms apart. */
    private RequestRecord replay(String file) throws IOException {
        InFlightRequest request = new InFlightRequest(
                0,
                Phase.MEASURED,
                RequestSpec.completion("a b c", 6),
                0,
                StreamSettings.of(true),
                RetryRule.NEVER,
                new RequestListener() {
                    @Override
                    public void retrying(InFlightRequest retried, long waitNanos) {
                        throw new AssertionError("no retries");
                    }

                    @Override
                    public void finished(InFlightRequest ended, FinishedRequest handover) {
                        records.add(handover.record());
                    }
                });
        MeasuredAttempt attempt = request.send(1 * MS, false);
        attempt.onHeaders(200, "text/event-stream; charset=utf-8", 2 * MS);
        String text;
        try (InputStream in = getClass().getResourceAsStream("/real-streams/llama.cpp/" + file)) {
            assertThat(in).as(file).isNotNull();
            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        long now = 10 * MS;
        for (String event : text.split("(?<=\n\n)")) {
            attempt.onBytes(ByteBuffer.wrap(event.getBytes(java.nio.charset.StandardCharsets.UTF_8)), now);
            now += 5 * MS;
        }
        attempt.onEndOfStream(now);
        assertThat(records).hasSize(1);
        return records.get(0);
    }
}
