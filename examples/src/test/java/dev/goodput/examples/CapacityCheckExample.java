package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.junit.assertions.GoodputAssertions.assertThat;

import dev.goodput.core.result.RunResult;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import dev.goodput.mock.ModelPredictions;
import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A capacity check: twice as many users as the server has batch slots, to show where the excess goes. The
 * {@code tiny-test} preset runs at most 8 sequences at once ({@code max_num_seqs = 8}); with 16 users in a
 * closed loop, 8 requests run and 8 wait in the server's queue for a slot.
 *
 * <p>What the model predicts for 128 input and 64 output tokens: a running request takes about 0.95 s (a
 * 14 ms prefill and 64 decode steps of about 14.4 ms over 8 sequences), so the engine completes about
 * 8 / 0.95 s = 8.1 requests/s ({@code maxRequestsPerSecond(128, 64)}). By Little's law each request then
 * spends 16 / 8.1 = 2 s in the system: 0.95 s running and about as long waiting for a slot, and that wait is
 * part of its time to first token. The time per output token is untouched: once admitted, a request decodes at
 * the batch's pace. So queueing shows up in TTFT, not in TPOT, and throughput stays near capacity. One run
 * measured median TTFT 1.03 s, p90 TPOT 15.4 ms and 6.9 requests/s.
 */
// tag::capacity-check[]
@GoodputTest
@SimulatedServer(preset = "tiny-test")
class CapacityCheckExample {

    private static final PerformanceModel MODEL = PerformanceModel.preset("tiny-test");

    @Test
    @Workload(inputTokens = 128, outputTokens = 64, seed = 4)
    @LoadProfile(concurrency = 16, requests = 64, warmupRequests = 16)
    @Slo(metric = TPOT, percentile = 90, atMost = 40)
    void sixteen_users_on_eight_slots_queue_for_the_first_token(RunResult result) {
        double capacity = ModelPredictions.of(MODEL).maxRequestsPerSecond(128, 64); // about 8.1 requests/s

        assertThat(result).hasNoFailedRequests().hasNoTimedOutRequests().isBalanced();
        // The server is saturated: throughput is at its capacity, not above it.
        assertThat(result).requestThroughput().isAtLeast(0.6 * capacity).isAtMost(1.2 * capacity);
        // Half the users wait for one of the 8 slots: about a whole request's time (0.95 s) before the first
        // token, where an idle server answers in about 30 ms.
        assertThat(result).ttft().median().isGreaterThan(Duration.ofMillis(400));
    }
}
// end::capacity-check[]
