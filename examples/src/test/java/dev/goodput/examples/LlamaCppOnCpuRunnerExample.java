package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerUnderTest;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import dev.goodput.testcontainers.EnabledIfContainerEngine;
import dev.goodput.testcontainers.LlamaCppContainer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * How a CPU runner gates on a real llama.cpp: the test starts {@code ghcr.io/ggml-org/llama.cpp} with a GGUF
 * file from the runner's model cache and the slots and threads under test, waits for the model and one warm-up
 * request, runs the load and judges it. Skipped unless the runner sets {@code GOODPUT_CPU_RUNNER=true} (and has a
 * container engine and the model file); see docs/containers.md.
 */
// tag::llama-cpp-cpu-runner[]
@GoodputTest
@EnabledIfEnvironmentVariable(
        named = "GOODPUT_CPU_RUNNER",
        matches = "true",
        disabledReason = "needs a runner with a container engine and the model file; set GOODPUT_CPU_RUNNER=true")
@EnabledIfContainerEngine
class LlamaCppOnCpuRunnerExample {

    @ServerUnderTest
    static LlamaCppContainer llama = new LlamaCppContainer()
            .withModelFile(Path.of("models", "qwen2.5-0.5b-instruct-q4_k_m.gguf"))
            .withAlias("qwen2.5-0.5b")
            .withParallel(4) // four requests decoded together, one slot each
            .withContextSize(4 * 1024) // the KV cache: 1024 tokens for each slot
            .withThreads(4);

    @Test
    @Workload(inputTokens = 256, outputTokens = 64)
    @LoadProfile(concurrency = 4, requests = 100)
    @Slo(metric = TTFT, percentile = 90, atMost = 2000)
    @Slo(metric = TPOT, percentile = 90, atMost = 100)
    @Slo(metric = GOODPUT, atLeast = 1)
    void fourUsersOnFourCoresGetTheirFirstTokenWithinTwoSeconds() {}
}
// end::llama-cpp-cpu-runner[]
