package dev.goodput.examples;

import static dev.goodput.core.Metric.ERROR_RATE;
import static dev.goodput.core.Metric.OUTPUT_TOKEN_THROUGHPUT;
import static dev.goodput.core.Metric.REQUEST_THROUGHPUT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/**
 * A decode-heavy batch job (summaries, synthetic data) judged on throughput, not latency: 16 workers each send
 * the next request as soon as the last one finished (a closed loop), with 512-token outputs.
 *
 * <p>Why these numbers hold on the simulated H100: 16 sequences decode together in steps of about 7.7 ms, so
 * the engine produces about 16 / 7.7 ms = 2,070 output tokens/s and finishes a 512-token request in about 4 s,
 * 16 of them at a time: about 4 requests/s. One run measured 1,978 output tokens/s and 3.86 requests/s; the
 * bounds ask for about 60 % of that.
 */
// tag::batch-gate[]
@GoodputTest
@SimulatedServer(preset = "h100-llama3-8b")
class BatchThroughputExample {

    // Throughput and error rate are one value per run, judged directly (there is no confidence interval).
    @Test
    @Workload(inputTokens = 256, outputTokens = 512, seed = 3)
    @LoadProfile(concurrency = 16, requests = 32)
    @Slo(metric = OUTPUT_TOKEN_THROUGHPUT, atLeast = 1200)
    @Slo(metric = REQUEST_THROUGHPUT, atLeast = 2.4)
    @Slo(metric = ERROR_RATE, atMost = 0)
    void sixteen_workers_get_at_least_1200_output_tokens_per_second() {}
}
// end::batch-gate[]
