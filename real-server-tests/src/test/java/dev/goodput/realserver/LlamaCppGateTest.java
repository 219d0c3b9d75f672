package dev.goodput.realserver;

import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerUnderTest;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/**
 * A gate written as a user writes one, against the real engine: the JUnit extension starts the server held by the
 * field, runs the load and judges the objectives. The bounds are loose (a 2-layer model on one CPU thread); the
 * point is that the whole annotation path works against a real server, keep-alive closes and all.
 */
@GoodputTest
@RequiresLlamaServer
class LlamaCppGateTest {

    // tag::real-server-gate[]
    @ServerUnderTest
    static final LlamaServer LLAMA = LlamaServer.withSlots(4, 8192);

    @Test
    @Workload(inputTokens = 64, outputTokens = 32, seed = 7)
    @LoadProfile(concurrency = 4, requests = 124, warmupRequests = 4)
    @Slo(metric = TTFT, percentile = 90, atMost = 2_000)
    @Slo(metric = TPOT, percentile = 90, atMost = 100)
    void four_users_get_their_first_token_within_2_s_and_a_token_every_100_ms() {}
    // end::real-server-gate[]
}
