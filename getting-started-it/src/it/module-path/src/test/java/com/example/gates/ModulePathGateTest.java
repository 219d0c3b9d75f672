package com.example.gates;

import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.goodput.core.Goodput;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import dev.goodput.mock.MockServer;
import org.junit.jupiter.api.Test;

/** One gate against the embedded simulated server, run with this class and Goodput's jars as named modules. */
@GoodputTest
@SimulatedServer(preset = "h100-llama3-8b")
class ModulePathGateTest {

    @Test
    @Workload(inputTokens = 64, outputTokens = 32, seed = 1)
    @LoadProfile(rate = 8, requests = 44, warmupRequests = 4, seed = 1)
    @Slo(metric = TTFT, percentile = 90, atMost = 1000)
    @Slo(metric = GOODPUT, atLeast = 4)
    void chat_answers_start_within_a_second_on_the_module_path() {
        // Printed for verify.groovy: the modules this test and Goodput's classes were loaded in.
        String modules = "modules: test=" + getClass().getModule().getName()
                + " junit=" + GoodputTest.class.getModule().getName()
                + " core=" + Goodput.class.getModule().getName()
                + " mock=" + MockServer.class.getModule().getName();
        System.out.println(modules);
        assertEquals(
                "modules: test=com.example.gates junit=dev.goodput.junit core=dev.goodput.core mock=dev.goodput.mock",
                modules);
    }
}
