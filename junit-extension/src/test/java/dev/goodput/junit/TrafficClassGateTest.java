package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.E2EL;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.workload.WorkloadMix;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** A gate over a traffic mix, through JUnit's own engine against the embedded simulated server. */
class TrafficClassGateTest {

    @TempDir
    Path reports;

    @GoodputTest
    @SimulatedServer
    static class Mixed {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @TrafficMix(
                value = {
                    @TrafficClass(name = "chat", weight = 3, workload = @Workload(inputTokens = 100, outputTokens = 8)),
                    @TrafficClass(
                            name = "rag",
                            weight = 1,
                            workload = @Workload(inputTokens = 3000, outputTokens = 32),
                            priority = 1,
                            headers = "x-tenant: search")
                },
                selection = WorkloadMix.Selection.INTERLEAVED)
        @LoadProfile(concurrency = 2, requests = 24)
        @Slo(trafficClass = "chat", metric = TTFT, max = true, atMost = 10_000)
        @Slo(trafficClass = "rag", metric = E2EL, max = true, atMost = 1)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_judge_each_class_on_its_own_objectives_and_name_the_class_that_failed() throws Exception {
        Events events = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn")
                .selectors(selectClass(Mixed.class))
                .execute()
                .testEvents();

        events.assertStatistics(stats -> stats.started(1).failed(1));
        RunResult result = Mixed.captured;
        // Interleaved 3 to 1: 18 chat and 6 rag requests.
        assertThat(result.forClass("chat").accounting().scheduled()).isEqualTo(18);
        assertThat(result.forClass("rag").accounting().scheduled()).isEqualTo(6);
        assertThat(result.verdicts()).extracting(v -> v.verdict()).containsExactly(Verdict.MET, Verdict.VIOLATED);
        String message = events.failed()
                .list()
                .get(0)
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow()
                .getMessage();
        assertThat(message)
                .startsWith("Mixed.gate(): 1 of 2 objectives not met\n")
                .contains("max E2EL of rag: measured ");
        Path directory = reports.resolve("Mixed").resolve("gate");
        assertThat(Files.readString(directory.resolve("summary.txt")))
                .contains("workload classes")
                .contains("  chat ")
                .contains("  rag ");
        assertThat(Files.readString(directory.resolve("requests.csv"))).contains(",rag\n");
    }
}
