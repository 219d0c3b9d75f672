package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;

import dev.goodput.core.ServerEndpoint;
import dev.goodput.junit.ABGate;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerVariant;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import dev.goodput.mock.PerformanceModel;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A pull-request A/B gate: main's server and this branch's server, both up, judged against each other in one run on
 * one machine (see {@code docs/ci-gates.md}). Here both are the simulated H100, the branch's with a larger step budget
 * (a pull request that changes an engine flag); in CI the methods return the two deployments' endpoints, given as
 * {@code GOODPUT_BASELINE_URL} and {@code GOODPUT_CANDIDATE_URL}.
 *
 * <p>The load is one block: 28 requests, the first 4 of each block its warm-up, Poisson at 20 requests/s. Blocks
 * alternate between the servers in pairs (ABBA or BAAB), 8 pairs at the first look and at most 16 (the default is 32), about a minute.
 */
// tag::ab-gate[]
@GoodputTest
class ABGateExample {

    static ServerVariant mainBranch() {
        return endpoint("GOODPUT_BASELINE_URL", "main")
                .orElse(ServerVariant.simulated("main", PerformanceModel.preset("h100-llama3-8b")));
    }

    static ServerVariant thisBranch() {
        PerformanceModel model = PerformanceModel.preset("h100-llama3-8b");
        return endpoint("GOODPUT_CANDIDATE_URL", "branch")
                .orElse(ServerVariant.simulated("branch", model.withMaxNumBatchedTokens(16384)));
    }

    @Test
    @ABGate(baseline = "mainBranch", candidate = "thisBranch", maxPairs = 16)
    @Workload(inputTokens = 512, outputTokens = 64, seed = 1)
    @LoadProfile(rate = 20, requests = 28, warmupRequests = 4, seed = 1)
    @Slo(metric = TTFT, percentile = 90, atMost = 500)
    @Slo(metric = TPOT, percentile = 50, atMost = 50)
    void branch_is_no_slower_than_main() {}

    static Optional<ServerVariant> endpoint(String variable, String name) {
        return Optional.ofNullable(System.getenv(variable))
                .map(url -> ServerVariant.of(
                        name, ServerEndpoint.of(url, System.getenv().getOrDefault("GOODPUT_MODEL", "model"))));
    }
}
// end::ab-gate[]
