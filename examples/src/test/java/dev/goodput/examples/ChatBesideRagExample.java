package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.E2EL;
import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.TrafficClassSpec;
import dev.goodput.core.workload.WorkloadMix;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.TrafficClass;
import dev.goodput.junit.Workload;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Short chat beside long-document RAG on one simulated H100, each class with its own contract: chat users must see
 * their first token quickly whatever RAG does, while a RAG answer is judged on how long it takes in all. One p99
 * over both would describe neither class. Chat's first tokens queue behind RAG's prefills, so successive ones are
 * strongly correlated (200 requests were worth 18 to 30 independent chat samples): the gate runs until decided.
 */
@GoodputTest
@SimulatedServer
class ChatBesideRagExample {

    @Test
    // tag::mix[]
    @TrafficClass(name = "chat", weight = 75, workload = @Workload(inputTokens = 200, outputTokens = 64))
    @TrafficClass(name = "rag", weight = 25, workload = @Workload(inputTokens = 3000, outputTokens = 128))
    @LoadProfile(rate = 8, requests = 804, untilDecidedFrom = 200, warmupRequests = 4, seed = 1)
    @Slo(trafficClass = "chat", metric = TTFT, percentile = 90, atMost = 300)
    @Slo(trafficClass = "rag", metric = E2EL, percentile = 90, atMost = 3000)
    @Slo(metric = GOODPUT, atLeast = 2)
    // end::mix[]
    void chat_holds_its_first_token_while_rag_is_judged_end_to_end(RunResult result) {
        RunResult chat = result.forClass("chat");
        RunResult rag = result.forClass("rag");
        // RAG's long prefills are what chat requests wait behind: its own TTFT is the longer.
        assertThat(rag.summary(TTFT).percentile(50))
                .isGreaterThan(chat.summary(TTFT).percentile(50));
    }

    @Test
    void the_same_mix_from_the_programmatic_api() {
        try (MockServer server = MockServer.start(MockServerConfig.defaults())) {
            // tag::mix-programmatic[]
            WorkloadSpec chat =
                    WorkloadSpec.synthetic().inputTokens(200).outputTokens(64).build();
            WorkloadSpec rag =
                    WorkloadSpec.synthetic().inputTokens(3000).outputTokens(128).build();
            WorkloadMix mix = WorkloadMix.builder()
                    .add(TrafficClassSpec.of("chat", 75, chat).withPriority(0))
                    .add(TrafficClassSpec.of("rag", 25, rag).withPriority(1).withHeader("x-tenant", "search"))
                    .seed(1)
                    .build();
            SloSpec chatFirstToken =
                    SloSpec.of(Metric.TTFT).inClass("chat").percentile(50).atMost(Duration.ofMillis(250));
            SloSpec ragAnswer =
                    SloSpec.of(Metric.E2EL).inClass("rag").percentile(50).atMost(Duration.ofSeconds(3));
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(mix)
                    .load(Load.poisson(8).seed(1).requests(60))
                    .objectives(chatFirstToken, ragAnswer)
                    .run();

            result.classes()
                    .forEach((name, part) -> System.out.printf(
                            "%s: %d requests, p50 TTFT %.1f ms, goodput %.2f req/s%n",
                            name,
                            part.accounting().measured(),
                            part.summary(Metric.TTFT).percentile(50) / 1e6,
                            part.goodput()));
            // end::mix-programmatic[]
            assertThat(result.classes()).containsOnlyKeys("chat", "rag");
            assertThat(result.forClass("chat").accounting().measured()
                            + result.forClass("rag").accounting().measured())
                    .isEqualTo(result.accounting().measured());
        }
    }
}
