package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/**
 * A chat gate that runs whole on one generator (here, against its simulated server) or sharded across several,
 * without a change to its code: the configuration parameters {@code goodput.shard.index} and {@code
 * goodput.shard.count} make a process one shard of the load, {@code goodput.shard.merge} makes it the merge that
 * judges the objectives (docs/distributed.md). {@code examples/kubernetes} runs it as four shards and a merge;
 * {@code ShardedGateAcrossProcessesTest} as three local JVMs against one simulated server.
 */
@GoodputTest
@SimulatedServer
class ShardedChatGateExample {

    @Test
    // tag::sharded-gate[]
    @Workload(inputTokens = 200, outputTokens = 32, seed = 7)
    @LoadProfile(rate = 20, requests = 960, warmupRequests = 12, seed = 7)
    @Slo(metric = TTFT, percentile = 90, atMost = 500)
    @Slo(metric = TPOT, percentile = 90, atMost = 50)
    // end::sharded-gate[]
    void chat_answers_start_fast_under_load_from_several_generators() {}
}
