package dev.goodput.examples;

import static dev.goodput.junit.assertions.GoodputAssertions.assertThat;

import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.junit.GoodputRunner;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.SimulatedServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Two runs in one test through a {@link GoodputRunner}: the same workload at a light and at a heavy load,
 * compared in the body. The runner resolves the server as annotated gates do (here the simulated
 * {@code tiny-test} server), applies {@code goodput.load.scale} and writes each run's reports to
 * {@code target/goodput/LoadComparisonExample/<method>-run1/} and {@code -run2/}.
 *
 * <p>The {@code tiny-test} preset completes at most about 18 requests/s of 64 input and 32 output tokens, 8 at a
 * time. At 6 requests/s about 2.5 requests are in flight and a new one almost never waits for a slot; at 16
 * requests/s about 7 are, the 8 slots are often all taken, and arrivals queue for the first token. One run
 * measured p90 TTFT 22 ms at the light load and 94 ms at the heavy one.
 */
@GoodputTest
@SimulatedServer(preset = "tiny-test")
class LoadComparisonExample {

    // tag::load-comparison[]
    @Test
    void first_token_latency_grows_with_the_load(GoodputRunner goodput) {
        WorkloadSpec chat = WorkloadSpec.synthetic()
                .inputTokens(64)
                .outputTokens(32)
                .seed(5)
                .build();

        RunResult light = goodput.run(chat, Load.poisson(6).seed(5).requests(44).warmupRequests(4));
        RunResult heavy =
                goodput.run(chat, Load.poisson(16).seed(5).requests(84).warmupRequests(4));

        assertThat(light).hasNoFailedRequests().ttft().hasSampleCountAtLeast(36);
        assertThat(heavy).hasNoFailedRequests().ttft().hasSampleCountAtLeast(36);
        Duration lightP90 =
                Duration.ofNanos(Math.round(light.summary(Metric.TTFT).percentile(90)));
        assertThat(heavy).ttft().percentile(90).isAtLeast(lightP90);
        assertThat(heavy).requestThroughput().isGreaterThan(light.value(Metric.REQUEST_THROUGHPUT));
    }
    // end::load-comparison[]
}
