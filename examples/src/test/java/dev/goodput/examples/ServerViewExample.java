package dev.goodput.examples;

import static dev.goodput.core.Metric.COST_PER_MILLION_GOOD_TOKENS;
import static dev.goodput.core.Metric.PEAK_KV_CACHE_USAGE;
import static dev.goodput.core.Metric.PREEMPTIONS;
import static dev.goodput.core.Metric.PREFIX_CACHE_HIT_RATE;
import static dev.goodput.core.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.RunResult;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.GpuDeployment;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/**
 * A gate on what the server saw as well as what users waited: the simulated H100's own {@code /metrics} are
 * scraped during the run (as a vLLM's would be), and the gate also holds the server to no preemptions, KV-cache
 * headroom, a warm prefix cache and a price per million good tokens at a stated GPU-hour price.
 */
@GoodputTest
@SimulatedServer
class ServerViewExample {

    @Test
    // tag::server-objectives[]
    @Workload(
            inputTokens = 2048,
            outputTokens = 64,
            prefix = Workload.Prefix.WARM,
            prefixTokens = 1536,
            prefixGroups = 2,
            seed = 1)
    @LoadProfile(rate = 8, requests = 64, warmupRequests = 4)
    @GpuDeployment(gpu = "H100-SXM", count = 1, pricePerGpuHour = 2.49, modelParameters = 8.03e9, bytesPerParameter = 2)
    @Slo(metric = TTFT, percentile = 90, atMost = 100)
    @Slo(metric = PREEMPTIONS, atMost = 0)
    @Slo(metric = PEAK_KV_CACHE_USAGE, atMost = 0.9)
    @Slo(metric = PREFIX_CACHE_HIT_RATE, atLeast = 0.5)
    @Slo(metric = COST_PER_MILLION_GOOD_TOKENS, atMost = 5.0)
    // end::server-objectives[]
    void rag_gate_with_the_servers_view_and_its_cost(RunResult result) {
        var server = result.serverMetrics();
        assertThat(server.scrapes()).isGreaterThanOrEqualTo(2);
        assertThat(server.figures().prefixCacheHitRate()).isGreaterThan(0.5);
        assertThat(server.bandwidth()).isPresent();
    }
}
