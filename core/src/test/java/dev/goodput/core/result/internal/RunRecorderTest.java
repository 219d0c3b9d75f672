package dev.goodput.core.result.internal;

import static dev.goodput.core.testing.SseText.DONE;
import static dev.goodput.core.testing.SseText.contentChunkWithUsage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestAttempt;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.testing.DirectRequests;
import dev.goodput.core.transport.internal.FinishedRequest;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import dev.goodput.core.workload.RequestSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RunRecorderTest {

    private static final long MS = 1_000_000;
    private static final String SECRET = "sk-goodput-test-4f9c2a7e1d3b5a6c8e0f";

    @Test
    void should_record_one_icl_sample_per_gap_and_spread_itl_over_the_tokens_of_the_later_event() {
        DirectRequests requests = new DirectRequests();
        MeasuredAttempt attempt = requests.send(0, RequestSpec.completion("x", 8), 0);
        attempt.onHeaders(200, "text/event-stream", MS);
        feed(attempt, 100, contentChunkWithUsage(" a", null, 1, 1));
        feed(attempt, 130, contentChunkWithUsage(" b c d", null, 1, 4)); // 30 ms gap, 3 tokens
        feed(attempt, 150, contentChunkWithUsage(" e", "length", 1, 5) + DONE); // 20 ms gap, 1 token

        RunRecorder recorder = new RunRecorder(SecretRedaction.none());
        recorder.record(requests.last());
        Histogram icl = recorder.snapshot().icl();
        Histogram itl = recorder.snapshot().itl();

        assertThat(icl.getTotalCount()).isEqualTo(2);
        assertThat(icl.getCountAtValue(30 * MS)).isEqualTo(1);
        assertThat(icl.getCountAtValue(20 * MS)).isEqualTo(1);
        assertThat(itl.getTotalCount()).isEqualTo(4);
        assertThat(itl.getCountAtValue(10 * MS)).isEqualTo(3);
        assertThat(itl.getCountAtValue(20 * MS)).isEqualTo(1);
    }

    @Test
    void should_pool_gaps_of_measured_successes_only_and_keep_every_record() {
        RunRecorder recorder = new RunRecorder(SecretRedaction.none());
        recorder.record(finished(record(0, Phase.WARMUP, Outcome.SUCCESS, null)));
        recorder.record(finished(record(1, Phase.MEASURED, Outcome.FAILED, "HTTP 503")));
        recorder.record(finished(record(2, Phase.MEASURED, Outcome.SUCCESS, null)));

        RunSnapshot snapshot = recorder.snapshot();
        assertThat(snapshot.records()).extracting(RequestRecord::index).containsExactly(0L, 1L, 2L);
        assertThat(snapshot.icl().getTotalCount()).isEqualTo(2);
        assertThat(snapshot.itl().getTotalCount()).isEqualTo(3);
    }

    @Test
    void should_redact_the_key_from_the_reason_and_the_earlier_attempts_as_it_takes_a_request() {
        RunRecorder recorder = new RunRecorder(SecretRedaction.of(SECRET));
        RequestRecord failed = record(4, Phase.MEASURED, Outcome.FAILED, "HTTP 401: invalid key Bearer " + SECRET);
        RequestRecord leaky = failed.withReasons(
                failed.errorDetail(),
                List.of(new RequestAttempt(1, 0, MS, 401, "HTTP 401: " + SECRET + " is not valid", 100 * MS)));
        recorder.record(finished(leaky));

        RequestRecord kept = recorder.snapshot().records().get(0);
        assertThat(kept.errorDetail()).isEqualTo("HTTP 401: invalid key Bearer [redacted API key]");
        assertThat(kept.retriedAttempts())
                .extracting(RequestAttempt::reason)
                .containsExactly("HTTP 401: [redacted API key] is not valid");
    }

    @Test
    void should_refuse_to_record_the_same_request_twice() {
        RunRecorder recorder = new RunRecorder(SecretRedaction.none());
        recorder.record(finished(record(3, Phase.MEASURED, Outcome.SUCCESS, null)));

        assertThatThrownBy(() -> recorder.record(finished(record(3, Phase.MEASURED, Outcome.SUCCESS, null))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("request 3 was recorded twice");
        assertThat(recorder.recorded()).isEqualTo(1);
    }

    @Test
    void should_count_every_request_once_while_threads_record_and_another_snapshots() throws Exception {
        int threads = 8;
        int perThread = 5_000;
        RunRecorder recorder = new RunRecorder(SecretRedaction.none());
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean recording = new AtomicBoolean(true);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t * perThread;
                writers.add(pool.submit(() -> {
                    start.await();
                    for (int i = first; i < first + perThread; i++) {
                        recorder.record(finished(record(i, Phase.MEASURED, Outcome.SUCCESS, null)));
                    }
                    return null;
                }));
            }
            Future<List<String>> reader = pool.submit(() -> {
                List<String> violations = new ArrayList<>();
                start.await();
                while (recording.get()) {
                    RunSnapshot snapshot = recorder.snapshot();
                    int size = snapshot.records().size();
                    long icl = snapshot.icl().getTotalCount();
                    // Each record carries two gaps of three tokens: a snapshot never holds part of a request.
                    if (icl != 2L * size || snapshot.itl().getTotalCount() != 3L * size) {
                        violations.add("torn snapshot: " + size + " records, " + icl + " ICL samples");
                    }
                    if (!isStrictlyIncreasing(snapshot.records())) {
                        violations.add("records out of order or repeated at size " + size);
                    }
                    try {
                        snapshot.records().add(snapshot.records().get(0));
                        violations.add("the records of a snapshot could be changed");
                    } catch (UnsupportedOperationException | IndexOutOfBoundsException expected) {
                        // immutable, or still empty
                    }
                    snapshot.icl().recordValue(1);
                    if (snapshot.icl().getTotalCount() != icl) {
                        violations.add("the histogram of a snapshot could be changed");
                    }
                    // Records taken after the snapshot must not appear in it.
                    if (snapshot.records().size() != size) {
                        violations.add("a snapshot grew after it was taken");
                    }
                }
                return violations;
            });
            start.countDown();
            for (Future<?> writer : writers) {
                writer.get(30, TimeUnit.SECONDS);
            }
            recording.set(false);

            assertThat(reader.get(30, TimeUnit.SECONDS)).isEmpty();
            RunSnapshot last = recorder.snapshot();
            assertThat(last.records()).hasSize(threads * perThread);
            assertThat(last.records())
                    .extracting(RequestRecord::index)
                    .containsExactlyElementsOf(java.util.stream.LongStream.range(0, (long) threads * perThread)
                            .boxed()
                            .toList());
            assertThat(last.icl().getTotalCount()).isEqualTo(2L * threads * perThread);
            assertThat(recorder.recorded()).isEqualTo(threads * perThread);
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean isStrictlyIncreasing(List<RequestRecord> records) {
        for (int i = 1; i < records.size(); i++) {
            if (records.get(i).index() <= records.get(i - 1).index()) {
                return false;
            }
        }
        return true;
    }

    private static void feed(MeasuredAttempt attempt, long millis, String text) {
        attempt.onBytes(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), millis * MS);
    }

    /** A request with two gaps: 20 ms before an event of 2 tokens, 10 ms before one of 1. */
    private static FinishedRequest finished(RequestRecord record) {
        return new FinishedRequest(record, false, 16, new long[] {20 * MS, 10 * MS}, new int[] {2, 1}, 2);
    }

    private static RequestRecord record(long index, Phase phase, Outcome outcome, String detail) {
        return new RequestRecord(
                index,
                phase,
                0,
                0,
                MS,
                10 * MS,
                40 * MS,
                40 * MS,
                false,
                outcome == Outcome.SUCCESS ? 200 : 503,
                3,
                4,
                TokenCountSource.USAGE,
                -1,
                8,
                8,
                20 * MS,
                "length",
                outcome,
                detail,
                List.of(),
                0,
                null,
                StreamPhases.NONE);
    }
}
