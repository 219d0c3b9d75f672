package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.ITL;
import static dev.goodput.core.slo.Metric.TTFT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerUnderTest;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import dev.goodput.testcontainers.EnabledIfContainerEngine;
import dev.goodput.testcontainers.VllmContainer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * How a GPU runner gates on a real vLLM: the test starts {@code vllm/vllm-openai} with the engine arguments under
 * test, waits for the model and one warm-up request, runs the load and judges it. Skipped unless the runner sets
 * {@code GOODPUT_GPU_RUNNER=true} (and has a container engine with the NVIDIA toolkit); see docs/containers.md.
 */
// tag::vllm-gpu-runner[]
@GoodputTest
@EnabledIfEnvironmentVariable(
        named = "GOODPUT_GPU_RUNNER",
        matches = "true",
        disabledReason = "needs a GPU runner with a container engine; set GOODPUT_GPU_RUNNER=true there")
@EnabledIfContainerEngine
class VllmOnGpuRunnerExample {

    @ServerUnderTest
    static VllmContainer vllm = new VllmContainer("Qwen/Qwen2.5-1.5B-Instruct")
            .withMaxModelLen(4096)
            .withMaxNumSeqs(128)
            .withGpuMemoryUtilization(0.90)
            .withPrefixCaching(true)
            .withHuggingFaceCache(Path.of(System.getProperty("user.home"), ".cache", "huggingface"))
            .withGpus()
            .withStartupTimeout(Duration.ofMinutes(20));

    @Test
    @Workload(inputTokens = 512, outputTokens = 128)
    @LoadProfile(concurrency = 32, requests = 500)
    @Slo(metric = TTFT, percentile = 99, atMost = 1000)
    @Slo(metric = ITL, percentile = 99, atMost = 100)
    @Slo(metric = GOODPUT, atLeast = 10)
    void thirtyTwoUsersGetTheirFirstTokenWithinASecond() {}
}
// end::vllm-gpu-runner[]
