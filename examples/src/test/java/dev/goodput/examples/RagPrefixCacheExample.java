package dev.goodput.examples;

import static dev.goodput.core.Metric.GOODPUT;
import static dev.goodput.core.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.RunResult;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/**
 * A RAG-shaped gate: long prompts (about 2,048 tokens) that start with one of two shared 1,536-token contexts
 * (a system prompt plus retrieved documents), short answers. With the prefix cache warm, the simulated H100
 * prefills only each prompt's own tail: p90 TTFT measured about 40-50 ms at 8 requests/s, where a cold 2k
 * prefill alone costs about 70 ms (the bound leaves room for a busy CI machine).
 */
@GoodputTest
@SimulatedServer
class RagPrefixCacheExample {

    @Test
    // tag::rag-workload[]
    @Workload(
            inputTokens = 2048,
            inputLengths = Workload.Lengths.UNIFORM,
            rangeRatio = 0.1,
            outputTokens = 64,
            prefix = Workload.Prefix.WARM,
            prefixTokens = 1536,
            prefixGroups = 2,
            seed = 1)
    @LoadProfile(rate = 8, requests = 64, warmupRequests = 4)
    @Slo(metric = TTFT, percentile = 90, atMost = 100)
    @Slo(metric = GOODPUT, atLeast = 4)
    // end::rag-workload[]
    void rag_answers_start_quickly_with_a_warm_shared_context(RunResult result) {
        assertThat(result.spec().workload().describe().get("prefix").toString()).contains("warm");
        assertThat(result.tokens().shorterThanAsked()).isZero();
    }
}
