package dev.goodput.examples;

import static dev.goodput.core.Metric.GOODPUT;
import static dev.goodput.core.Metric.TPOT;
import static dev.goodput.core.Metric.TTFT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/**
 * A chat gate: short prompts, long answers, users arriving at random (an open-loop Poisson process) at 24
 * requests/s, judged on the time to the first token and the time per output token at the 90th and 99th
 * percentiles, and on goodput.
 *
 * <p>Why these numbers hold on the simulated H100 ({@code h100-llama3-8b}): a 128-token prompt prefills in
 * about 7 ms and a decode step over the ~50 sequences in flight takes about 8 ms, so TTFT is typically 15-20 ms
 * (wait for the running step, then one mixed step) and TPOT about 8 ms. The preset saturates at about 78
 * requests/s of this shape ({@code ModelPredictions.of(model).maxRequestsPerSecond(128, 256)}), so 24/s is under a third
 * of its capacity. One run on a shared 2-core machine measured p90 TTFT 20 ms, p99 TTFT 78 ms (95% CI up to
 * 182 ms), p99 TPOT 8.4 ms and goodput 22.5 requests/s. The bounds leave wide margins because the tails of a
 * busy CI machine (garbage collection, descheduled threads) land in TTFT: with 400 samples the upper end of a
 * p99's confidence interval is one of the slowest few requests.
 */
// tag::chat-gate[]
@GoodputTest
@SimulatedServer(preset = "h100-llama3-8b")
class ChatGateExample {

    // A p99 needs at least 368 effective samples before its 95% upper confidence bound exists (a p90 needs 36),
    // and requests under load are worth fewer: a queue that built up holds several in a row. So the run lasts
    // until every objective is decided: it looks after 400 measured requests, then at 800, 1,600 and 4,000.
    @Test
    @Workload(inputTokens = 128, outputTokens = 256, seed = 1)
    @LoadProfile(rate = 24, requests = 4020, untilDecidedFrom = 400, warmupRequests = 20, seed = 1)
    @Slo(metric = TTFT, percentile = 90, atMost = 150)
    @Slo(metric = TTFT, percentile = 99, atMost = 500)
    @Slo(metric = TPOT, percentile = 90, atMost = 25)
    @Slo(metric = TPOT, percentile = 99, atMost = 30)
    @Slo(metric = GOODPUT, atLeast = 18)
    void chat_answers_start_fast_and_stream_smoothly_at_24_requests_per_second() {}
}
// end::chat-gate[]
