package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.ab.ABResult;
import dev.goodput.junit.ABGate;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerVariant;
import dev.goodput.junit.Workload;
import dev.goodput.testcontainers.EnabledIfContainerEngine;
import dev.goodput.testcontainers.GoodputMockServerContainer;
import org.junit.jupiter.api.Test;

/**
 * An A/B gate between two containers of one image with two argument sets, as a pull request that changes an engine
 * flag: main's step budget against the branch's. Both containers are started before the run and stopped after it;
 * the blocks alternate between them. It runs wherever Testcontainers finds an engine and is skipped, with a message,
 * where it finds none (docs/containers.md, "Two engines for an A/B gate").
 */
// tag::container-ab-gate[]
@GoodputTest
@EnabledIfContainerEngine
class ContainerABGateExample {

    static ServerVariant mainBranch() {
        return ServerVariant.of("main", new GoodputMockServerContainer().withPreset("h100-llama3-8b"));
    }

    static ServerVariant thisBranch() {
        return ServerVariant.of(
                "branch",
                new GoodputMockServerContainer().withPreset("h100-llama3-8b").withMaxNumBatchedTokens(16384));
    }

    @Test
    @ABGate(baseline = "mainBranch", candidate = "thisBranch", maxPairs = 8)
    @Workload(inputTokens = 256, outputTokens = 32, seed = 1)
    @LoadProfile(rate = 20, requests = 24, warmupRequests = 4, seed = 1)
    void branch_flags_are_no_slower_than_mains(ABResult result) {
        // Each arm's result names its own container and arguments, as its page does.
        assertThat(result.candidate().spec().server().metadata()).containsKey("container_image");
        assertThat(result.baseline().spec().server().metadata().get("engine_args"))
                .isNotEqualTo(result.candidate().spec().server().metadata().get("engine_args"));
    }
}
// end::container-ab-gate[]
