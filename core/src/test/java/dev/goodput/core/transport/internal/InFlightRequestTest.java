package dev.goodput.core.transport.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;
import static dev.goodput.core.testing.SseText.DONE;
import static dev.goodput.core.testing.SseText.contentChunk;
import static dev.goodput.core.testing.SseText.usageChunk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestAttempt;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.workload.RequestSpec;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The request owns its attempts: a retry is its next attempt, sent after the wait, with the earlier ones kept; an
 * attempt that ended cannot touch the request again. Times are given by hand, as a fake clock would read them.
 */
class InFlightRequestTest {

    private static final long MS = 1_000_000;
    private static final long INTENDED = 1_000 * MS;

    private final List<Long> retryWaits = new ArrayList<>();
    private final List<FinishedRequest> finished = new ArrayList<>();
    private final List<RequestRecord> failedAttemptsSeen = new ArrayList<>();

    /** Retries any failure with a status, twice at most, after the Retry-After or 100 ms. */
    private final RetryRule retryRule = (failedAttempt, retryAfterSeconds) -> {
        failedAttemptsSeen.add(failedAttempt);
        if (failedAttempt.httpStatus() == 0 || failedAttempt.attempts() > 2) {
            return -1;
        }
        return retryAfterSeconds >= 0 ? retryAfterSeconds * 1_000 * MS : 100 * MS;
    };

    private final InFlightRequest request = new InFlightRequest(
            3,
            Phase.MEASURED,
            RequestSpec.completion("a b c", 16).withPromptTokens(3),
            INTENDED,
            StreamSettings.of(true),
            retryRule,
            new RequestListener() {
                @Override
                public void retrying(InFlightRequest retried, long waitNanos) {
                    assertThat(Thread.holdsLock(retried)).isFalse();
                    retryWaits.add(waitNanos);
                }

                @Override
                public void finished(InFlightRequest ended, FinishedRequest handover) {
                    assertThat(Thread.holdsLock(ended)).isFalse();
                    finished.add(handover);
                }
            });

    @Test
    void should_send_its_next_attempt_after_a_retryable_failure_and_keep_the_failed_one() {
        MeasuredAttempt first = request.send(1_010 * MS, true);
        first.onRetryAfter("1");
        fail503(first, 1_030 * MS);

        assertThat(retryWaits).containsExactly(1_000 * MS);
        assertThat(finished).isEmpty();
        assertThat(request.isEnded()).isFalse();

        MeasuredAttempt second = request.send(2_030 * MS, false);
        assertThat(second).isNotSameAs(first);
        assertThat(second.number()).isEqualTo(2);
        stream(second, 2_100 * MS);

        RequestRecord record = onlyRecord();
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.dispatchedNanos()).as("the first attempt's send").isEqualTo(1_010 * MS);
        assertThat(record.heldByConcurrencyCap()).as("the first attempt's wait").isTrue();
        assertThat(record.ttftNanos()).as("from the intended start").isEqualTo(1_100 * MS);
        assertThat(record.ttftFromSendNanos()).isEqualTo(1_090 * MS);
        assertThat(record.httpStatus()).isEqualTo(200);
        assertThat(record.retriedAttempts())
                .containsExactly(new RequestAttempt(
                        1,
                        1_010 * MS,
                        1_030 * MS,
                        503,
                        "HTTP 503: the engine is overloaded (type: ServiceUnavailableError, code: 503)",
                        1_000 * MS));
        assertThat(failedAttemptsSeen).singleElement().satisfies(failed -> {
            assertThat(failed.attempts()).isEqualTo(1);
            assertThat(failed.outcome()).isEqualTo(Outcome.FAILED);
        });
    }

    @Test
    void should_ignore_what_a_failed_attempt_receives_after_the_request_moved_on() {
        MeasuredAttempt first = request.send(1_010 * MS, false);
        fail503(first, 1_030 * MS);
        MeasuredAttempt second = request.send(1_130 * MS, false);

        feed(first, 1_140 * MS, contentChunk(" late", "stop") + DONE);
        first.onEndOfStream(1_150 * MS);
        assertThat(first.timeOut("no first token within 1 s of sending", 2_010 * MS))
                .as("a stale timeout of the first attempt")
                .isFalse();
        first.onFailure(new java.io.IOException("reset"), 1_160 * MS);
        assertThat(finished).isEmpty();

        stream(second, 1_200 * MS);
        assertThat(onlyRecord().outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(onlyRecord().firstTokenNanos()).isEqualTo(1_200 * MS);
    }

    @Test
    void should_time_out_its_second_attempt_and_end_with_the_first_kept() {
        MeasuredAttempt first = request.send(1_010 * MS, false);
        fail503(first, 1_030 * MS);
        MeasuredAttempt second = request.send(1_130 * MS, false);
        int[] aborts = {0};
        second.attach(() -> aborts[0]++);
        second.onHeaders(200, "text/event-stream", 1_140 * MS);

        assertThat(second.timeOut("no first token within 1 s of sending", 2_130 * MS))
                .isTrue();
        assertThat(second.timeOut("not finished within 2 s of sending", 3_130 * MS))
                .isFalse();

        RequestRecord record = onlyRecord();
        assertThat(record.outcome()).isEqualTo(Outcome.TIMED_OUT);
        assertThat(record.errorDetail()).isEqualTo("no first token within 1 s of sending");
        assertThat(record.endNanos()).isEqualTo(2_130 * MS);
        assertThat(record.headersNanos()).as("the second attempt's headers").isEqualTo(1_140 * MS);
        assertThat(record.dispatchedNanos()).isEqualTo(1_010 * MS);
        assertThat(record.attempts()).isEqualTo(2);
        assertThat(retryWaits).as("a timeout is not retried").hasSize(1);
        assertThat(aborts[0]).isEqualTo(1);
    }

    @Test
    void should_end_cancelled_while_waiting_for_its_retry_with_the_failed_attempt_kept() {
        MeasuredAttempt first = request.send(1_010 * MS, false);
        fail503(first, 1_030 * MS);

        assertThat(request.cancel("still in flight when the drain period of 300 ms ended", 1_050 * MS))
                .isTrue();
        assertThat(request.send(1_130 * MS, false)).as("the retry is not sent").isNull();
        assertThat(request.cancel("again", 1_060 * MS)).isFalse();

        RequestRecord record = onlyRecord();
        assertThat(record.outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(record.errorDetail()).isEqualTo("still in flight when the drain period of 300 ms ended");
        assertThat(record.endNanos()).isEqualTo(1_050 * MS);
        assertThat(record.dispatchedNanos()).isEqualTo(1_010 * MS);
        assertThat(record.httpStatus()).as("no response to the retry").isZero();
        assertThat(record.headersNanos()).isEqualTo(ABSENT);
        assertThat(record.retriedAttempts())
                .singleElement()
                .satisfies(attempt -> assertThat(attempt.httpStatus()).isEqualTo(503));
    }

    @Test
    void should_end_failed_with_every_attempt_when_the_rule_stops_retrying() {
        long now = 1_010 * MS;
        for (int attempt = 1; attempt <= 3; attempt++) {
            fail503(request.send(now, false), now + 20 * MS);
            now += 200 * MS;
        }

        RequestRecord record = onlyRecord();
        assertThat(record.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(record.attempts()).isEqualTo(3);
        assertThat(record.retriedAttempts()).extracting(RequestAttempt::number).containsExactly(1, 2);
        assertThat(record.retriedAttempts())
                .extracting(RequestAttempt::dispatchedNanos)
                .containsExactly(1_010 * MS, 1_210 * MS);
        assertThat(record.dispatchedNanos()).isEqualTo(1_010 * MS);
        assertThat(retryWaits).containsExactly(100 * MS, 100 * MS);
    }

    @Test
    void should_hand_over_the_gaps_of_its_final_attempt_only() {
        MeasuredAttempt first = request.send(1_010 * MS, false);
        fail503(first, 1_030 * MS);
        stream(request.send(1_130 * MS, false), 1_200 * MS);

        List<long[]> gaps = new ArrayList<>();
        finished.get(0).forEachGap((gap, tokens) -> gaps.add(new long[] {gap, tokens}));
        assertThat(gaps).containsExactly(new long[] {20 * MS, 1});
    }

    @Test
    void should_send_again_at_once_when_the_connection_closed_before_any_response_without_spending_a_retry() {
        MeasuredAttempt first = request.send(1_010 * MS, false);
        first.onFailure(new IOException("HTTP/1.1 header parser received no bytes", new EOFException()), 1_011 * MS);

        assertThat(retryWaits).as("sent again at once").containsExactly(0L);
        assertThat(failedAttemptsSeen).as("the retry rule is not asked").isEmpty();
        MeasuredAttempt second = request.send(1_012 * MS, false);
        assertThat(second.number()).as("the same attempt, sent again").isEqualTo(1);
        stream(second, 1_100 * MS);

        RequestRecord record = onlyRecord();
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.connectionRetries()).isEqualTo(1);
        assertThat(record.retriedAttempts()).isEmpty();
        assertThat(record.dispatchedNanos()).as("the first send").isEqualTo(1_010 * MS);
        assertThat(record.ttftNanos()).as("from the intended start").isEqualTo(100 * MS);
    }

    @Test
    void should_fail_after_a_bounded_number_of_connections_closed_before_any_response() {
        long now = 1_010 * MS;
        for (int send = 0; send <= InFlightRequest.MAX_CONNECTION_RETRIES; send++) {
            request.send(now, false).onFailure(new EOFException("EOF reached while reading"), now + MS);
            now += 2 * MS;
        }

        RequestRecord record = onlyRecord();
        assertThat(record.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(record.connectionRetries()).isEqualTo(InFlightRequest.MAX_CONNECTION_RETRIES);
        assertThat(record.errorDetail()).startsWith("connection closed by the server (EOFException");
        assertThat(retryWaits).hasSize(InFlightRequest.MAX_CONNECTION_RETRIES).containsOnly(0L);
    }

    @Test
    void should_not_send_again_a_request_whose_connection_closed_after_the_response_began() {
        MeasuredAttempt first = request.send(1_010 * MS, false);
        first.onHeaders(200, "text/event-stream", 1_020 * MS);
        first.onFailure(new EOFException("EOF reached while reading"), 1_030 * MS);

        assertThat(failedAttemptsSeen).as("a failure the retry rule judges").hasSize(1);
        assertThat(failedAttemptsSeen.get(0).connectionRetries()).isZero();
        assertThat(retryWaits).as("this rule's back-off, not a send at once").containsExactly(100 * MS);
    }

    @Test
    void should_not_send_again_a_request_whose_connection_was_refused() {
        request.send(1_010 * MS, false)
                .onFailure(
                        new ConnectException(null).initCause(new ConnectException("Connection refused")), 1_011 * MS);

        RequestRecord record = onlyRecord();
        assertThat(record.connectionRetries()).isZero();
        assertThat(record.errorDetail()).isEqualTo("connection refused or unreachable (ConnectException)");
    }

    @Test
    void should_take_its_send_from_the_first_attempts_body_write_when_the_transport_reports_it() {
        MeasuredAttempt first = request.send(1_010 * MS, false);
        first.onRequestWritten(1_012 * MS);
        fail503(first, 1_030 * MS);
        MeasuredAttempt second = request.send(2_030 * MS, false);
        second.onRequestWritten(2_031 * MS);
        stream(second, 2_100 * MS);

        RequestRecord record = onlyRecord();
        assertThat(record.dispatchedNanos())
                .as("the first attempt's write, not its start")
                .isEqualTo(1_012 * MS);
        assertThat(record.ttftFromSendNanos()).isEqualTo(1_088 * MS);
        assertThat(record.retriedAttempts().get(0).dispatchedNanos()).isEqualTo(1_012 * MS);
    }

    @Test
    void should_take_its_send_from_the_last_write_of_an_attempt_sent_again_on_another_connection() {
        MeasuredAttempt first = request.send(1_010 * MS, false);
        first.onRequestWritten(1_010 * MS + MS / 2);
        first.onFailure(new IOException("HTTP/1.1 header parser received no bytes", new EOFException()), 1_011 * MS);
        MeasuredAttempt again = request.send(1_012 * MS, false);
        again.onRequestWritten(1_013 * MS);
        first.onRequestWritten(1_014 * MS); // a late report of the dead connection's write changes nothing
        stream(again, 1_100 * MS);

        assertThat(onlyRecord().dispatchedNanos())
                .as("the server saw only the write on the second connection")
                .isEqualTo(1_013 * MS);
    }

    private RequestRecord onlyRecord() {
        assertThat(finished).as("the request ends exactly once").hasSize(1);
        assertThat(request.record()).isSameAs(finished.get(0).record());
        return finished.get(0).record();
    }

    private static void fail503(MeasuredAttempt attempt, long nanos) {
        attempt.onHeaders(503, "application/json", nanos - MS);
        feed(
                attempt,
                nanos,
                "{\"error\":{\"message\":\"the engine is overloaded\",\"type\":\"ServiceUnavailableError\","
                        + "\"code\":503}}");
        attempt.onEndOfStream(nanos);
    }

    /** Streams two tokens, the first at {@code firstTokenNanos} and the second 20 ms later. */
    private static void stream(MeasuredAttempt attempt, long firstTokenNanos) {
        attempt.onHeaders(200, "text/event-stream", firstTokenNanos - 10 * MS);
        feed(attempt, firstTokenNanos, contentChunk(" a", null));
        feed(attempt, firstTokenNanos + 20 * MS, contentChunk(" b", "length") + usageChunk(3, 2) + DONE);
    }

    private static void feed(MeasuredAttempt attempt, long nanos, String text) {
        attempt.onBytes(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), nanos);
    }
}
