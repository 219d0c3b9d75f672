package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Trials;
import dev.goodput.junit.Workload;
import org.junit.jupiter.api.Test;

/**
 * A pull-request gate against a baseline kept in the repository: besides its absolute bounds, the gate compares each
 * key metric with {@code src/test/goodput-baselines/RegressionGateExample/chat_has_not_regressed/baseline.json} and
 * fails if one got worse by at least 10 % beyond doubt (see {@code docs/ci-gates.md}).
 *
 * <p>The baseline was recorded with {@code -Dgoodput.baseline.record=true} on the main job's command. Two trials on
 * each side let the comparison see the run-to-run noise of a shared machine; one retry lets an untrustworthy or
 * inconclusive trial run again. At 20 requests/s the simulated H100 is at about a quarter of its capacity for this
 * shape, so a trial of 200 requests takes about 10 seconds.
 */
// tag::regression-gate[]
@GoodputTest
@SimulatedServer(preset = "h100-llama3-8b")
class RegressionGateExample {

    @Test
    @Workload(inputTokens = 128, outputTokens = 128, seed = 1)
    @LoadProfile(rate = 20, requests = 210, warmupRequests = 10, seed = 1)
    @Slo(metric = TTFT, percentile = 90, atMost = 150)
    @Slo(metric = TPOT, percentile = 50, atMost = 25)
    @Trials(value = 2, retries = 1)
    void chat_has_not_regressed() {}
}
// end::regression-gate[]
