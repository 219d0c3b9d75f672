package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.COST_PER_MILLION_GOOD_TOKENS;
import static dev.goodput.core.slo.Metric.PEAK_KV_CACHE_USAGE;
import static dev.goodput.core.slo.Metric.PREEMPTIONS;
import static dev.goodput.core.slo.Metric.PREFIX_CACHE_HIT_RATE;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ScrapeSettings;
import dev.goodput.core.servermetrics.ServerMetricsResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.GpuDeployment;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A gate on what the server saw as well as what users waited: the simulated H100's own {@code /metrics} are
 * scraped during the run (as a vLLM's would be), and the gate also holds the server to no preemptions, KV-cache
 * headroom, a warm prefix cache and a price per million good tokens at a stated GPU-hour price. The TTFT bound
 * is loose on purpose (measured p90 about 50 ms, with a tail near 100 ms on a busy CI machine): the prefix-cache
 * objective, not TTFT, is what holds this gate to a warm cache.
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
    @Slo(metric = TTFT, percentile = 90, atMost = 200)
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

    @Test
    void the_server_view_from_the_programmatic_api() {
        try (MockServer server = MockServer.start(MockServerConfig.defaults())) {
            // tag::server-view-programmatic[]
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(512)
                            .outputTokens(64)
                            .build())
                    .load(Load.poisson(6).seed(1).requests(40))
                    .serverMetrics(ScrapeSettings.DEFAULT.withInterval(Duration.ofMillis(500)))
                    .deployment(Deployment.of("H100-SXM", 1)
                            .withPricePerGpuHour(2.49)
                            .withModel(8.03e9, 2))
                    .objectives(SloSpec.of(Metric.PREEMPTIONS).atMost(0))
                    .run();

            ServerMetricsResult.Figures figures = result.serverMetrics().figures();
            System.out.printf(
                    "peak KV cache %.1f %%, %.3f J per output token, %.2f per million good tokens%n",
                    figures.peakKvCacheUsage() * 100,
                    figures.energyPerOutputToken(),
                    figures.costPerMillionGoodTokens());
            result.serverMetrics().facts().forEach(System.out::println);
            // end::server-view-programmatic[]
            assertThat(figures.energyPerOutputToken()).isPositive();
            assertThat(figures.costPerMillionGoodTokens()).isPositive();
            assertThat(result.serverMetrics().failedScrapes()).isZero();
        }
    }
}
