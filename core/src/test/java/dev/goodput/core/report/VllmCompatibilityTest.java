package dev.goodput.core.report;

import static dev.goodput.core.record.RequestRecord.ABSENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.testing.SampleResults;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The keys of the {@code vllm} block that vLLM's saved {@code bench serve} result has beyond the statistics, on
 * records made by hand (instants in milliseconds of a fake clock).
 */
class VllmCompatibilityTest {

    private static final long MS = 1_000_000;

    /** A measured request that failed after it was sent, having waited in the client's queue. */
    private static RequestRecord failed(long index, long intended, long dispatched, long end) {
        return new RequestRecord(
                index,
                Phase.MEASURED,
                intended * MS,
                dispatched == ABSENT ? ABSENT : dispatched * MS,
                ABSENT,
                ABSENT,
                ABSENT,
                end * MS,
                false,
                dispatched == ABSENT ? 0 : 503,
                0,
                0,
                TokenCountSource.NONE,
                -1,
                -1,
                8,
                ABSENT,
                null,
                dispatched == ABSENT ? Outcome.CANCELLED : Outcome.FAILED,
                dispatched == ABSENT ? "cancelled before it was sent" : "HTTP 503",
                List.of(),
                0,
                null,
                StreamPhases.NONE);
    }

    // intended, dispatched, first, last, end (ms); the vLLM interval is [dispatched, last).
    private static final List<RequestRecord> RECORDS = List.of(
            SampleResults.success(0, Phase.WARMUP, -500, -500, 100, 305, 305, 3), // excluded
            SampleResults.success(
                    1, Phase.MEASURED, 0, 0, 100, 300, 310, 5), // [0, 300): ends 10 ms after its last event
            failed(2, 100, 130, 400), // sent, failed: latency 0, queue 30 ms
            SampleResults.success(3, Phase.MEASURED, 250, 300, 350, 500, 520, 3), // [300, 500), queued 50 ms
            SampleResults.success(4, Phase.MEASURED, 300, 300, 400, 450, 460, 3), // [300, 450)
            failed(5, 600, ABSENT, 600), // never sent: latency 0, queue 0
            SampleResults.success(6, Phase.COOLDOWN, 320, 320, 400, 480, 480, 3)); // excluded

    private static JsonNode vllmBlock(RunResult result) throws Exception {
        return new ObjectMapper().readTree(JsonReport.toJson(result)).get("vllm");
    }

    @Test
    void should_sweep_the_successful_measured_requests_from_send_to_last_event_for_the_peak_concurrency()
            throws Exception {
        JsonNode vllm = vllmBlock(SampleResults.compute(RECORDS, List.of()));

        // [0, 300), [300, 500), [300, 450): request 1 leaves at 300 before 3 and 4 arrive, so the peak is 2. Taking
        // arrivals first at 300, the stream's end (310) instead of its last event, the failed request [130, 400),
        // the warm-up [-500, 305) or the cool-down [320, 480) would each make it 3.
        assertThat(vllm.get("max_concurrent_requests").asInt()).isEqualTo(2);
        assertThat(vllm.get("max_concurrent_requests").isInt()).isTrue();
    }

    @Test
    void should_list_latency_and_queue_time_in_seconds_per_measured_request_in_request_order() throws Exception {
        JsonNode vllm = vllmBlock(SampleResults.compute(RECORDS, List.of()));

        // Requests 1 to 5; failures keep their position with latency 0, as vLLM writes them.
        assertThat(doubles(vllm.get("latencies")))
                .containsExactly(new double[] {0.3, 0.0, 0.2, 0.15, 0.0}, within(1e-12));
        // Queue time is the client's wait before the send, which a failed request had too; one never sent has 0.
        assertThat(doubles(vllm.get("queue_times")))
                .containsExactly(new double[] {0.0, 0.03, 0.05, 0.0, 0.0}, within(1e-12));
        assertThat(vllm.get("latencies").size())
                .isEqualTo(vllm.get("completed").asInt() + vllm.get("failed").asInt());
    }

    @Test
    void should_write_no_peak_output_rate_for_a_result_made_from_records_alone() throws Exception {
        JsonNode vllm = vllmBlock(SampleResults.compute(RECORDS, List.of()));

        assertThat(vllm.has("max_output_tokens_per_s")).isTrue();
        assertThat(vllm.get("max_output_tokens_per_s").isNull()).isTrue();
    }

    @Test
    void should_carry_the_recorded_peak_output_rate_as_vllm_float_and_keep_vllm_key_order() throws Exception {
        RunRecorder recorder = new RunRecorder(SecretRedaction.none());
        // Events at 600, 900 (3 tokens), 1100 and at 950, 1050: [0, 1000) from the send at 0 holds three.
        recorder.record(SampleResults.streamed(1, Phase.MEASURED, 500, 600, new long[] {300, 200}, new int[] {3, 1}));
        recorder.record(SampleResults.streamed(2, Phase.MEASURED, 0, 950, new long[] {100}, new int[] {1}));
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(WorkloadSpec.synthetic().build())
                .load(Load.constantRate(5).requests(2))
                .build();
        RunResult result = ResultCalculator.compute(spec, RunEnvironment.current(Instant.EPOCH), recorder.snapshot());

        JsonNode vllm = vllmBlock(result);

        assertThat(result.load().peakOutputChunksPerSecond()).isEqualTo(3);
        assertThat(vllm.get("max_output_tokens_per_s").isDouble()).isTrue();
        assertThat(vllm.get("max_output_tokens_per_s").asDouble()).isEqualTo(3.0);
        // vLLM's order: the aggregates, its two peaks, then the per-request lists, then the statistics.
        List<String> keys = new ArrayList<>();
        vllm.fieldNames().forEachRemaining(keys::add);
        assertThat(keys)
                .containsSubsequence(
                        "total_token_throughput",
                        "max_output_tokens_per_s",
                        "max_concurrent_requests",
                        "latencies",
                        "queue_times",
                        "mean_ttft_ms");
    }

    private static double[] doubles(JsonNode array) {
        double[] values = new double[array.size()];
        Iterator<JsonNode> elements = array.elements();
        for (int i = 0; elements.hasNext(); i++) {
            values[i] = elements.next().asDouble();
        }
        return values;
    }
}
