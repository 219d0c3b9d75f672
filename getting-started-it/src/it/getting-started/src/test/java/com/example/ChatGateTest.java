package com.example;

import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.TTFT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/** A new user's first gate, against the simulated vLLM embedded in the test JVM: 44 requests, a few seconds. */
@GoodputTest
@SimulatedServer(preset = "h100-llama3-8b")
class ChatGateTest {

    @Test
    @Workload(inputTokens = 64, outputTokens = 32, seed = 1)
    @LoadProfile(rate = 8, requests = 44, warmupRequests = 4, seed = 1)
    @Slo(metric = TTFT, percentile = 90, atMost = 1000)
    @Slo(metric = GOODPUT, atLeast = 4)
    void chat_answers_start_within_a_second() {}
}
