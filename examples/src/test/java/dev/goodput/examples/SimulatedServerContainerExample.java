package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.result.RunResult;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerUnderTest;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import dev.goodput.testcontainers.EnabledIfContainerEngine;
import dev.goodput.testcontainers.GoodputMockServerContainer;
import org.junit.jupiter.api.Test;

/**
 * A performance gate against Goodput's simulated server in a container, started by the test itself. It runs
 * wherever Testcontainers finds an engine (Docker, or Podman's socket as in this project's CI) and is skipped,
 * with a message, where it finds none.
 */
// tag::simulated-server-container[]
@GoodputTest
@EnabledIfContainerEngine
class SimulatedServerContainerExample {

    // Started before the first gate, shared by every gate of the class, stopped after the last.
    @ServerUnderTest
    static GoodputMockServerContainer server =
            new GoodputMockServerContainer().withPreset("h100-llama3-8b").withMaxNumSeqs(64);

    @Test
    @Workload(inputTokens = 256, outputTokens = 64)
    // Eight users in a closed loop move together: 120 requests held 18 to 52 effective samples for the p50 TTFT in
    // four CI runs, so the run lasts until decided, looking at 120, 240, 480 and 960.
    @LoadProfile(concurrency = 8, requests = 960, untilDecidedFrom = 120)
    @Slo(metric = TTFT, percentile = 50, atMost = 500)
    @Slo(metric = TPOT, percentile = 50, atMost = 50)
    @Slo(metric = GOODPUT, atLeast = 5)
    void chatLatencyHoldsAtEightConcurrentUsers(RunResult result) {
        assertThat(result.spec().server().metadata())
                .containsEntry("server", "goodput-mock-server")
                .containsKey("container_image");
    }

    @Test
    @Workload(inputTokens = 64, outputTokens = 16)
    @LoadProfile(concurrency = 4, requests = 40)
    @Slo(metric = TTFT, percentile = 50, atMost = 500)
    void aSecondGateReusesTheSameContainer(RunResult result) {
        assertThat(result.spec().server().baseUrl().toString()).isEqualTo(server.getBaseUrl());
    }
}
// end::simulated-server-container[]
