package dev.goodput.core.transport.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;
import static dev.goodput.core.testing.SseText.DONE;
import static dev.goodput.core.testing.SseText.contentChunk;
import static dev.goodput.core.testing.SseText.contentChunkWithUsage;
import static dev.goodput.core.testing.SseText.errorEvent;
import static dev.goodput.core.testing.SseText.roleChunk;
import static dev.goodput.core.testing.SseText.usageChunk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.TokenCounter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeasuredAttemptTest {

    private static final long MS = 1_000_000;
    private final List<InFlightRequest> completions = new ArrayList<>();
    private final List<FinishedRequest> finished = new ArrayList<>();
    private final RequestListener listener = new RequestListener() {
        @Override
        public void retrying(InFlightRequest request, long waitNanos) {
            throw new AssertionError("no retries without a retry rule");
        }

        @Override
        public void finished(InFlightRequest request, FinishedRequest handover) {
            completions.add(request);
            finished.add(handover);
        }
    };

    private MeasuredAttempt request(boolean requireStreamEnd, TokenCounter counter) {
        RequestSpec spec = RequestSpec.completion("a b c", 16).withPromptTokens(3);
        InFlightRequest request = new InFlightRequest(
                7,
                Phase.MEASURED,
                spec,
                0,
                new StreamSettings(requireStreamEnd, counter, SecretRedaction.none()),
                RetryRule.NEVER,
                listener);
        return request.send(10 * MS, false);
    }

    private MeasuredAttempt request() {
        return request(true, null);
    }

    private static void feed(MeasuredAttempt request, long atMillis, String text) {
        request.onBytes(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), atMillis * MS);
    }

    private static RequestRecord record(MeasuredAttempt attempt) {
        return attempt.request().record();
    }

    private List<long[]> gaps(MeasuredAttempt attempt) {
        assertThat(completions).contains(attempt.request());
        List<long[]> gaps = new ArrayList<>();
        finished.get(completions.indexOf(attempt.request()))
                .forEachGap((gap, tokens) -> gaps.add(new long[] {gap, tokens}));
        return gaps;
    }

    @Test
    void should_time_a_vllm_chat_stream_from_the_first_non_empty_content() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, roleChunk() + contentChunk(" a", null));
        feed(request, 120, contentChunk(" b", null));
        feed(request, 140, contentChunk(" c", "length") + usageChunk(12, 3) + DONE);

        RequestRecord record = record(request);
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.errorDetail()).isNull();
        assertThat(record.index()).isEqualTo(7);
        assertThat(record.headersNanos()).isEqualTo(20 * MS);
        assertThat(record.ttftNanos()).isEqualTo(100 * MS);
        assertThat(record.ttftFromSendNanos()).isEqualTo(90 * MS);
        assertThat(record.queueNanos()).isEqualTo(10 * MS);
        assertThat(record.e2elNanos()).isEqualTo(140 * MS);
        assertThat(record.endNanos()).isEqualTo(140 * MS);
        assertThat(record.tpotNanos()).isEqualTo(20.0 * MS);
        assertThat(record.maxStallNanos()).isEqualTo(20 * MS);
        assertThat(record.contentEvents()).isEqualTo(3);
        assertThat(record.outputTokens()).isEqualTo(3);
        assertThat(record.outputTokenSource()).isEqualTo(TokenCountSource.USAGE);
        assertThat(record.serverPromptTokens()).isEqualTo(12);
        assertThat(record.clientPromptTokens()).isEqualTo(3);
        assertThat(record.inputTokens()).isEqualTo(12);
        assertThat(record.finishReason()).isEqualTo("length");
        assertThat(gaps(request)).containsExactly(new long[] {20 * MS, 1}, new long[] {20 * MS, 1});
        assertThat(completions).containsExactly(request.request());
    }

    @Test
    void should_count_the_tokens_of_multi_token_events_from_continuous_usage() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 50, contentChunkWithUsage(" a", null, 12, 0).replace(" a", ""));
        feed(request, 100, contentChunkWithUsage(" a b", null, 12, 2));
        feed(request, 130, contentChunkWithUsage(" c d e", null, 12, 5));
        feed(request, 140, contentChunkWithUsage(" f", "length", 12, 6) + usageChunk(12, 6) + DONE);

        RequestRecord record = record(request);
        assertThat(record.ttftNanos()).isEqualTo(100 * MS);
        assertThat(record.contentEvents()).isEqualTo(3);
        assertThat(record.outputTokens()).isEqualTo(6);
        assertThat(record.tpotNanos()).isEqualTo(40.0 * MS / 5);
        assertThat(gaps(request)).containsExactly(new long[] {30 * MS, 3}, new long[] {10 * MS, 1});
    }

    @Test
    void should_fall_back_to_continuous_usage_when_the_final_usage_chunk_is_missing() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, contentChunkWithUsage(" a", null, 12, 1));
        feed(request, 110, contentChunkWithUsage(" b", "stop", 12, 2) + DONE);

        RequestRecord record = record(request);
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.outputTokens()).isEqualTo(2);
        assertThat(record.outputTokenSource()).isEqualTo(TokenCountSource.CONTINUOUS_USAGE);
    }

    @Test
    void should_count_content_events_when_the_server_sends_no_usage() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, contentChunk(" a", null) + contentChunk(" b", null) + contentChunk(" c", "stop") + DONE);

        RequestRecord record = record(request);
        assertThat(record.outputTokens()).isEqualTo(3);
        assertThat(record.outputTokenSource()).isEqualTo(TokenCountSource.CONTENT_EVENTS);
        assertThat(record.serverPromptTokens()).isEqualTo(-1);
        assertThat(record.inputTokens()).isEqualTo(3);
        // Three events in one read share that read's time: two gaps of zero.
        assertThat(gaps(request)).containsExactly(new long[] {0, 1}, new long[] {0, 1});
        assertThat(record.tpotNanos()).isEqualTo(0.0);
    }

    @Test
    void should_use_a_client_tokenizer_when_configured_and_keep_its_count_beside_the_servers() {
        TokenCounter words = text -> text.isBlank() ? 0 : text.strip().split("\\s+").length;
        MeasuredAttempt withUsage = request(true, words);
        withUsage.onHeaders(200, "text/event-stream", 20 * MS);
        feed(withUsage, 100, contentChunk(" a b", null) + contentChunk(" c", "stop") + usageChunk(3, 4) + DONE);
        assertThat(record(withUsage).outputTokens()).isEqualTo(4);
        assertThat(record(withUsage).outputTokenSource()).isEqualTo(TokenCountSource.USAGE);
        assertThat(record(withUsage).clientOutputTokens()).isEqualTo(3);

        MeasuredAttempt withoutUsage = request(true, words);
        withoutUsage.onHeaders(200, "text/event-stream", 20 * MS);
        feed(withoutUsage, 100, contentChunk(" a b", null) + contentChunk(" c", "stop") + DONE);
        assertThat(record(withoutUsage).outputTokens()).isEqualTo(3);
        assertThat(record(withoutUsage).outputTokenSource()).isEqualTo(TokenCountSource.CLIENT_TOKENIZER);
    }

    @Test
    void should_give_no_tpot_and_no_stall_for_a_one_token_output() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, contentChunk(" a", "length") + usageChunk(3, 1) + DONE);

        RequestRecord record = record(request);
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.e2elNanos()).isEqualTo(100 * MS);
        assertThat(record.tpotNanos()).isNaN();
        assertThat(record.maxStallNanos()).isEqualTo(ABSENT);
        assertThat(gaps(request)).isEmpty();
    }

    @Test
    void should_fail_on_an_error_object_inside_a_200_stream() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, contentChunk(" a", null));
        feed(request, 120, errorEvent("engine crashed") + DONE);

        RequestRecord record = record(request);
        assertThat(record.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(record.errorDetail())
                .startsWith("error event in the stream: ")
                .contains("engine crashed");
        assertThat(record.endNanos()).isEqualTo(120 * MS);
        assertThat(record.firstTokenNanos()).isEqualTo(100 * MS);
    }

    @Test
    void should_fail_a_stream_that_ends_without_done() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, contentChunk(" a", null) + contentChunk(" b", null));
        request.onEndOfStream(150 * MS);

        RequestRecord record = record(request);
        assertThat(record.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(record.errorDetail())
                .isEqualTo("the stream ended without [DONE] after 2 content events and without a finish_reason");
        assertThat(record.endNanos()).isEqualTo(150 * MS);
    }

    @Test
    void should_accept_a_stream_without_done_when_the_backend_is_known_not_to_send_one() {
        MeasuredAttempt request = request(false, null);
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, contentChunk(" a", null) + contentChunk(" b", null));
        request.onEndOfStream(150 * MS);

        assertThat(record(request).outcome()).isEqualTo(Outcome.SUCCESS);
    }

    @Test
    void should_fail_a_done_without_finish_reason_or_without_content() {
        MeasuredAttempt noFinish = request();
        noFinish.onHeaders(200, "text/event-stream", 20 * MS);
        feed(noFinish, 100, contentChunk(" a", null) + DONE);
        assertThat(record(noFinish).errorDetail())
                .isEqualTo("the stream ended with [DONE] but no choice carried a finish_reason");

        MeasuredAttempt noContent = request();
        noContent.onHeaders(200, "text/event-stream", 20 * MS);
        feed(noContent, 100, roleChunk() + DONE);
        assertThat(record(noContent).errorDetail())
                .isEqualTo("the stream ended with [DONE] without generating any text");
    }

    @Test
    void should_report_the_status_and_the_servers_message_for_an_http_error() {
        MeasuredAttempt request = request();
        request.onHeaders(503, "application/json", 20 * MS);
        feed(
                request,
                21,
                "{\"error\":{\"message\":\"Service Unavailable\",\"type\":\"ServiceUnavailableError\","
                        + "\"param\":null,\"code\":503}}");
        request.onEndOfStream(22 * MS);

        RequestRecord record = record(request);
        assertThat(record.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(record.httpStatus()).isEqualTo(503);
        assertThat(record.errorDetail()).startsWith("HTTP 503: ").contains("Service Unavailable");
        assertThat(record.firstTokenNanos()).isEqualTo(ABSENT);
    }

    @Test
    void should_say_so_when_the_response_is_not_an_event_stream() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "application/json", 20 * MS);
        feed(request, 30, "{\"choices\":[{\"text\":\"a\"}]}");
        request.onEndOfStream(30 * MS);

        assertThat(record(request).errorDetail())
                .isEqualTo("the response was application/json, not an event stream (text/event-stream)");
    }

    @Test
    void should_end_exactly_once_and_ignore_what_arrives_after_a_timeout() {
        MeasuredAttempt request = request();
        int[] aborts = {0};
        request.attach(() -> aborts[0]++);
        request.onHeaders(200, "text/event-stream", 20 * MS);
        assertThat(request.timeOut("no first token within 1 s of sending", 1010 * MS))
                .isTrue();
        feed(request, 1100, contentChunk(" a", "stop") + DONE);
        request.onEndOfStream(1200 * MS);
        assertThat(request.request().cancel("late", 1300 * MS)).isFalse();

        RequestRecord record = record(request);
        assertThat(record.outcome()).isEqualTo(Outcome.TIMED_OUT);
        assertThat(record.errorDetail()).isEqualTo("no first token within 1 s of sending");
        assertThat(record.endNanos()).isEqualTo(1010 * MS);
        assertThat(record.firstTokenNanos()).isEqualTo(ABSENT);
        assertThat(completions).hasSize(1);
        assertThat(aborts[0]).isEqualTo(1);
    }

    @Test
    void should_abort_an_exchange_attached_after_the_request_was_cancelled() {
        MeasuredAttempt request = request();
        request.request().cancel("still waiting when the drain period of 30 s ended", 5 * MS);
        int[] aborts = {0};
        request.attach(() -> aborts[0]++);
        assertThat(aborts[0]).isEqualTo(1);
        assertThat(record(request).outcome()).isEqualTo(Outcome.CANCELLED);
    }

    @Test
    void should_time_an_event_split_across_reads_at_the_read_that_completes_it() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        String first = contentChunk(" a", null);
        feed(request, 100, first.substring(0, 20));
        feed(request, 105, first.substring(20));
        feed(request, 130, contentChunk(" b", "stop") + DONE);

        assertThat(record(request).firstTokenNanos()).isEqualTo(105 * MS);
        assertThat(record(request).maxStallNanos()).isEqualTo(25 * MS);
    }

    @Test
    void should_fail_with_a_readable_reason_when_the_connection_is_lost() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, contentChunk(" a", null));
        request.onFailure(
                new java.io.IOException("connection reset", new java.io.EOFException("EOF reached")), 110 * MS);

        RequestRecord record = record(request);
        assertThat(record.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(record.errorDetail()).isEqualTo("connection closed by the server (EOFException: EOF reached)");
    }

    @Test
    void should_fail_on_a_malformed_event() {
        MeasuredAttempt request = request();
        request.onHeaders(200, "text/event-stream", 20 * MS);
        feed(request, 100, "data: {\"choices\": [ {\"delta\": \n\n");

        assertThat(record(request).outcome()).isEqualTo(Outcome.FAILED);
        assertThat(record(request).errorDetail()).startsWith("malformed stream event: ");
    }
}
