package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.report.Reports;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A performance gate written with the programmatic API: a chat workload at 8 requests/s against the embedded
 * simulated vLLM (an 8B model on an H100), judged on p90 TTFT, p90 TPOT and goodput. The reports land in
 * {@code target/goodput/programmatic-chat/}.
 */
class ProgrammaticRunExample {

    @Test
    void chat_stays_responsive_at_eight_requests_per_second() {
        // tag::programmatic-run[]
        try (MockServer server = MockServer.start(
                MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("h100-llama3-8b")))) {
            RunResult result = Goodput.run(
                    ServerEndpoint.of(server.baseUrl(), server.modelName()),
                    WorkloadSpec.synthetic()
                            .inputTokens(256)
                            .outputTokens(64)
                            .seed(1)
                            .build(),
                    Load.poisson(8).seed(1).requests(100).warmupRequests(20),
                    SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(500)),
                    SloSpec.of(Metric.TPOT).percentile(90).atMost(Duration.ofMillis(50)),
                    SloSpec.of(Metric.GOODPUT).atLeast(4));

            Reports.writeAll(result, Path.of("target", "goodput", "programmatic-chat"));
            System.out.print(ConsoleReport.format(result));
            assertThat(result.unmet()).as(ConsoleReport.format(result)).isEmpty();
        }
        // end::programmatic-run[]
    }

    @Test
    void every_request_is_accounted_for_and_the_verdicts_carry_their_evidence() {
        try (MockServer server = MockServer.start(MockServerConfig.defaults())) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(64)
                            .outputTokens(16)
                            .build())
                    .load(Load.concurrency(4).requests(40))
                    .objectives(SloSpec.of(Metric.E2EL).percentile(50).atMost(Duration.ofSeconds(5)))
                    .run();

            assertThat(result.accounting().isBalanced()).isTrue();
            assertThat(result.accounting().scheduled()).isEqualTo(40);
            SloVerdict verdict = result.verdicts().get(0);
            assertThat(verdict.sampleCount()).isEqualTo(40);
            assertThat(verdict.interval()).isNotNull();
            assertThat(verdict.describe()).startsWith("p50 E2EL: measured ");
        }
    }
}
