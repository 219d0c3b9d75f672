package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.TTFT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerVariant;
import dev.goodput.junit.ServerVariants;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import dev.goodput.testcontainers.EnabledIfContainerEngine;
import dev.goodput.testcontainers.VllmContainer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The tuning record of a real vLLM on a GPU runner: the same gate against {@code --max-num-seqs} 64, 128 and 256
 * and against 256 without the prefix cache, each container started just before its run and stopped just after,
 * so they never share the GPU. Skipped unless the runner sets {@code GOODPUT_GPU_RUNNER=true}; see
 * docs/variants.md.
 */
@GoodputTest
@EnabledIfEnvironmentVariable(
        named = "GOODPUT_GPU_RUNNER",
        matches = "true",
        disabledReason = "needs a GPU runner with a container engine; set GOODPUT_GPU_RUNNER=true there")
@EnabledIfContainerEngine
class VllmVariantsOnGpuRunnerExample {

    // tag::vllm-variants[]
    static List<ServerVariant> engineArguments() {
        return List.of(
                ServerVariant.of("max-num-seqs 64", vllm().withMaxNumSeqs(64)),
                ServerVariant.of("max-num-seqs 128", vllm().withMaxNumSeqs(128)),
                ServerVariant.of("max-num-seqs 256", vllm().withMaxNumSeqs(256)),
                ServerVariant.of(
                        "max-num-seqs 256, no prefix cache",
                        vllm().withMaxNumSeqs(256).withPrefixCaching(false)));
    }

    static VllmContainer vllm() {
        return new VllmContainer("Qwen/Qwen2.5-1.5B-Instruct")
                .withMaxModelLen(4096)
                .withHuggingFaceCache(Path.of(System.getProperty("user.home"), ".cache", "huggingface"))
                .withGpus()
                .withStartupTimeout(Duration.ofMinutes(20));
    }

    @Test
    @ServerVariants(value = "engineArguments", require = ServerVariants.Require.ANY)
    @Workload(inputTokens = 512, outputTokens = 128)
    @LoadProfile(rate = 20, requests = 1000)
    @Slo(metric = TTFT, percentile = 99, atMost = 1000)
    void some_batch_size_serves_twenty_requests_a_second_within_a_second() {}
    // end::vllm-variants[]
}
