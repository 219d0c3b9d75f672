package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.COST_PER_MILLION_GOOD_TOKENS;
import static dev.goodput.core.slo.Metric.PEAK_KV_CACHE_USAGE;
import static dev.goodput.core.slo.Metric.PREEMPTIONS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** Server objectives, the scraping settings and the stated deployment, through JUnit's own engine. */
class ServerObjectivesGateTest {

    @TempDir
    Path reports;

    private Events run(Class<?> testCase, Map<String, String> parameters) {
        var request = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn");
        parameters.forEach(request::configurationParameter);
        return request.selectors(selectClass(testCase)).execute().testEvents();
    }

    private static String failureMessage(Events events) {
        return events.failed()
                .list()
                .get(0)
                .getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow()
                .getMessage();
    }

    @GoodputTest
    @SimulatedServer(preset = "tiny-test") // 8 sequences, 4,096 tokens of KV cache
    static class PastTheKnee {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 460, outputTokens = 96)
        @LoadProfile(concurrency = 12, requests = 12)
        @ServerMetrics(intervalMs = 200)
        @GpuDeployment(gpu = "L4", count = 1, pricePerGpuHour = 0.8)
        @Slo(metric = PREEMPTIONS, atMost = 0)
        @Slo(metric = PEAK_KV_CACHE_USAGE, atMost = 0.9)
        @Slo(metric = COST_PER_MILLION_GOOD_TOKENS, atMost = 1_000_000)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_fail_a_gate_on_server_objectives_with_the_same_message_as_latency_objectives() throws Exception {
        Events events = run(PastTheKnee.class, Map.of());

        events.assertStatistics(stats -> stats.started(1).failed(1));
        RunResult result = PastTheKnee.captured;
        assertThat(result.verdicts())
                .extracting(v -> v.verdict())
                .containsExactly(Verdict.VIOLATED, Verdict.VIOLATED, Verdict.MET);
        assertThat(failureMessage(events))
                .startsWith("PastTheKnee.gate(): 2 of 3 objectives not met\n"
                        + "  " + result.verdicts().get(0).describe() + "\n"
                        + "  " + result.verdicts().get(1).describe() + "\n")
                .contains("preemptions: measured ")
                .contains("peak KV cache use: measured ");
        Path directory = reports.resolve("PastTheKnee").resolve("gate");
        assertThat(Files.readString(directory.resolve("summary.txt")))
                .contains("server: KV cache peaked at")
                .contains("cost: ");
        assertThat(Files.readString(directory.resolve("result.json")))
                .contains("\"server_metrics\"")
                .contains("\"gpu\" : \"L4\"")
                .contains("\"memory_bandwidth_gbps\" : 300.0");
        assertThat(Files.readString(directory.resolve("report.html"))).contains("What the server saw");
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class ScrapingOff {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 2, requests = 4)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_scrape_the_simulated_servers_metrics_by_default_and_not_when_turned_off() {
        run(ScrapingOff.class, Map.of()).assertStatistics(stats -> stats.succeeded(1));
        assertThat(ScrapingOff.captured.serverMetrics().scrapes()).isGreaterThanOrEqualTo(2);

        run(ScrapingOff.class, Map.of("goodput.server-metrics", "off")).assertStatistics(stats -> stats.succeeded(1));
        assertThat(ScrapingOff.captured.serverMetrics().isEmpty()).isTrue();
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class CostWithoutPrice {
        @org.junit.jupiter.api.Test
        @LoadProfile(concurrency = 1, requests = 2)
        @Slo(metric = COST_PER_MILLION_GOOD_TOKENS, atMost = 1_000_000)
        void gate() {}
    }

    @Test
    void should_name_the_annotation_that_states_a_price_as_it_is_spelt() throws Exception {
        String message = failureMessage(run(CostWithoutPrice.class, Map.of("goodput.slo.inconclusive", "fail")));

        java.util.regex.Matcher advice =
                java.util.regex.Pattern.compile("@(\\w+)\\((\\w+)\\)").matcher(message);
        assertThat(advice.find()).as("an annotation named in: %s", message).isTrue();
        Class<?> annotation = Class.forName("dev.goodput.junit." + advice.group(1));
        assertThat(annotation.isAnnotation()).isTrue();
        assertThat(annotation.getMethod(advice.group(2)).getName()).isEqualTo("pricePerGpuHour");
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class BadEndpoint {
        @org.junit.jupiter.api.Test
        @LoadProfile(concurrency = 1, requests = 2)
        @ServerMetrics(endpoints = "ftp://127.0.0.1/metrics")
        void gate() {}
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class BadGpuCount {
        @org.junit.jupiter.api.Test
        @LoadProfile(concurrency = 1, requests = 2)
        @GpuDeployment(count = 0)
        void gate() {}
    }

    @Test
    void should_refuse_bad_settings_naming_the_annotation_the_attribute_and_the_value() {
        assertThat(failureMessage(run(BadEndpoint.class, Map.of())))
                .isEqualTo("@ServerMetrics on BadEndpoint.gate(): endpoints = \"ftp://127.0.0.1/metrics\" must be an"
                        + " absolute http:// or https:// URL");
        assertThat(failureMessage(run(ScrapingOff.class, Map.of("goodput.server-metrics.endpoints", "gpu-host:9400"))))
                .isEqualTo("configuration parameter goodput.server-metrics.endpoints = 'gpu-host:9400' must be an"
                        + " absolute http:// or https:// URL");
        assertThat(failureMessage(run(BadGpuCount.class, Map.of())))
                .isEqualTo("@GpuDeployment on BadGpuCount.gate(): count = 0 must be at least 1");
        assertThat(failureMessage(run(BadGpuCount.class, Map.of("goodput.server-metrics", "maybe"))))
                .contains("goodput.server-metrics = 'maybe' must be 'on' or 'off'");
    }
}
