package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/**
 * A chat-shaped gate replayed from a trace: 40 requests in Mooncake's format (timestamp in ms, prompt and reply
 * lengths, block hash ids whose shared leading ids are shared conversation prefixes). Each request starts at
 * its recorded offset, so bursts in the trace reach the server as bursts.
 */
@GoodputTest
@SimulatedServer
class ChatTraceReplayExample {

    @Test
    // tag::trace-workload[]
    @Workload(trace = "classpath:traces/chat-mooncake.jsonl")
    @Slo(metric = TTFT, percentile = 90, atMost = 200)
    @Slo(metric = TPOT, percentile = 90, atMost = 30)
    @Slo(metric = GOODPUT, atLeast = 3)
    // end::trace-workload[]
    void chat_trace_replays_within_its_objectives(RunResult result) {
        assertThat(result.spec().load().arrivals()).isEqualTo(Load.traceReplay());
        assertThat(result.records()).hasSize(40);
        assertThat(result.tokens().finishReasons()).containsOnlyKeys("length");
    }
}
