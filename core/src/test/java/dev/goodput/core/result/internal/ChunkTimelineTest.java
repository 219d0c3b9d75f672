package dev.goodput.core.result.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.testing.SampleResults;
import dev.goodput.core.transport.internal.FinishedRequest;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The peak output rate (vLLM's {@code max_output_tokens_per_s}) as the {@link RunRecorder} takes it, on requests
 * made by hand: every instant is in milliseconds of a fake clock.
 */
class ChunkTimelineTest {

    private static final long MS = 1_000_000;

    private static FinishedRequest failedAfterSending(long index, long dispatched) {
        RequestRecord record = new RequestRecord(
                index,
                Phase.MEASURED,
                dispatched * MS,
                dispatched * MS,
                ABSENT,
                ABSENT,
                ABSENT,
                (dispatched + 5) * MS,
                false,
                503,
                0,
                0,
                TokenCountSource.NONE,
                -1,
                -1,
                8,
                ABSENT,
                null,
                Outcome.FAILED,
                "HTTP 503",
                List.of(),
                0,
                null,
                StreamPhases.NONE);
        return new FinishedRequest(record, false, 64, new long[0], new int[0], 0);
    }

    private static long peak(FinishedRequest... requests) {
        RunRecorder recorder = new RunRecorder(SecretRedaction.none());
        for (FinishedRequest request : requests) {
            recorder.record(request);
        }
        return recorder.snapshot().peakOutputChunksPerSecond();
    }

    @Test
    void should_count_one_per_content_event_in_seconds_from_the_earliest_successful_send() {
        // A, sent at 500 and recorded first: events at 600, 900 (3 tokens in one event), 1100.
        FinishedRequest a =
                SampleResults.streamed(1, Phase.MEASURED, 500, 600, new long[] {300, 200}, new int[] {3, 1});
        // B, sent at 0 and recorded later: events at 950, 1050.
        FinishedRequest b = SampleResults.streamed(2, Phase.MEASURED, 0, 950, new long[] {100}, new int[] {1});
        // Seconds from B's send at 0: [0, 1000) holds 600, 900, 950 (3 events; 5 tokens, which vLLM does not
        // count); [1000, 2000) holds 1050, 1100. From A's send at 500 all five would share a second.
        assertThat(peak(a, b)).isEqualTo(3);
    }

    @Test
    void should_leave_out_warmup_requests_and_failed_requests_also_from_the_first_second() {
        FinishedRequest a =
                SampleResults.streamed(1, Phase.MEASURED, 500, 600, new long[] {300, 200}, new int[] {3, 1});
        FinishedRequest b = SampleResults.streamed(2, Phase.MEASURED, 0, 950, new long[] {100}, new int[] {1});
        // Counted, the warm-up request (sent at -1000, events at -900 and 100) would start the seconds at -1000 and
        // make [0, 1000) hold 100, 600, 900, 950; the failure sent at -200 would start them at -200 and make
        // [800, 1800) hold 900, 950, 1050, 1100.
        FinishedRequest warmup = SampleResults.streamed(0, Phase.WARMUP, -1000, -900, new long[] {1000}, new int[] {1});
        FinishedRequest failed = failedAfterSending(3, -200);

        assertThat(peak(warmup, a, failed, b)).isEqualTo(3);
    }

    @Test
    void should_put_an_event_exactly_one_second_after_the_origin_into_the_next_second() {
        // Sent at 0; events at 999 and 1000 ms: seconds are half-open, [0, 1000) and [1000, 2000).
        FinishedRequest request = SampleResults.streamed(1, Phase.MEASURED, 0, 999, new long[] {1}, new int[] {1});

        assertThat(peak(request)).isEqualTo(1);
    }

    @Test
    void should_report_zero_without_a_measured_success_as_vllm_does() {
        assertThat(peak(failedAfterSending(1, 0))).isZero();
        // Records alone do not hold the instant of every event.
        assertThat(RunSnapshot.of(List.of(), new Histogram(3), new Histogram(3)).peakOutputChunksPerSecond())
                .isEqualTo(RunSnapshot.NOT_TRACKED);
    }
}
