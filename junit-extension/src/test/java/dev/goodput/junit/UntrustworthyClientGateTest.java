package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.result.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * A run whose client fell behind its schedule offered the server less load than the profile says, so its
 * objectives may pass for the wrong reason. The gate fails it by default ({@code goodput.client.untrustworthy =
 * fail}) and only warns when told to. The tests force the verdict with a send-lag limit of one nanosecond,
 * which no real client meets.
 */
class UntrustworthyClientGateTest {

    @TempDir
    Path reports;

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class EasyGate {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(rate = 100, arrivals = LoadProfile.Arrivals.CONSTANT, requests = 30)
        @Slo(metric = TTFT, percentile = 50, atMost = 5000)
        void gate(RunResult result) {
            captured = result;
        }
    }

    private Events run(Map<String, String> parameters) {
        var request = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.send-lag-limit-ms", "0.000001");
        parameters.forEach(request::configurationParameter);
        return request.selectors(selectClass(EasyGate.class)).execute().testEvents();
    }

    @Test
    void should_fail_a_gate_whose_client_fell_behind_even_when_every_objective_is_met() throws Exception {
        Map<String, String> messages = GoodputExtensionTest.failureMessages(run(Map.of()));

        RunResult result = EasyGate.captured;
        assertThat(result.clientHealth().trustworthy()).isFalse();
        assertThat(result.allMet()).isTrue();
        assertThat(messages.get("gate"))
                .startsWith("EasyGate.gate(): the run is not trustworthy, so its objectives cannot pass\n")
                .contains("\nclient: the client fell behind its schedule: p90 send lag ")
                .contains(" exceeds 0.00 ms, so the server was offered less load than the profile asked for (on a"
                        + " busy machine raise goodput.client.send-lag-limit-ms or set"
                        + " goodput.client.untrustworthy=warn)\n");
        Path directory = reports.resolve("EasyGate").resolve("gate");
        assertThat(Files.readString(directory.resolve("summary.txt")))
                .contains("WARNING: the client fell behind its schedule");
        assertThat(Files.readString(directory.resolve("result.json"))).contains("\"trustworthy\" : false");
    }

    @Test
    void should_pass_with_a_warning_when_told_to_warn() {
        run(Map.of("goodput.client.untrustworthy", "warn"))
                .assertStatistics(stats -> stats.started(1).succeeded(1));
        assertThat(EasyGate.captured.clientHealth().trustworthy()).isFalse();
    }
}
