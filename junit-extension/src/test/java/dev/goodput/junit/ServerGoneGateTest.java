package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** {@code @LoadProfile(stopWhenServerGone = true)}: a gate whose server is gone stops early and fails saying so. */
class ServerGoneGateTest {

    @TempDir
    Path reports;

    private Events execute(Class<?> testCase) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn")
                .configurationParameter("goodput.preflight", "off")
                .configurationParameter("goodput.server-metrics", "off")
                .selectors(selectClass(testCase))
                .execute()
                .testEvents();
    }

    @GoodputTest
    static class ServerGone {
        @org.junit.jupiter.api.Test
        @ServerUrl(value = "http://127.0.0.1:9", model = "gone")
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 4, requests = 400, stopWhenServerGone = true)
        @Slo(metric = TTFT, percentile = 50, atMost = 1000)
        void gate() {}
    }

    @Test
    void should_stop_a_gate_whose_server_is_gone_and_fail_it_saying_why() {
        Events events = execute(ServerGone.class);

        events.assertStatistics(stats -> stats.failed(1));
        String message = GoodputExtensionTest.failureMessages(events).get("gate");
        assertThat(message)
                .startsWith("ServerGone.gate(): the run was stopped early: the server was gone: 20 requests in a row"
                        + " found no server to connect to (the last: connection refused or unreachable (")
                .contains("\n  p50 TTFT: ")
                .contains("\nrequests: ")
                .contains(" failed, 0 timed out, ");
        long scheduled = Long.parseLong(message.replaceAll("(?s).*\nrequests: (\\d+) scheduled.*", "$1"));
        assertThat(scheduled).isLessThan(400);
    }
}
