package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.report.GateReport;
import dev.goodput.core.report.IndexedReport;
import dev.goodput.core.report.ReportIndex;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Baselines, trials and the noise policy, end to end against the simulated server: an unchanged server compared
 * with its own baseline is never REGRESSED, one made 15 % slower per token is.
 */
@Isolated("counts false alarms of an unchanged server against a baseline recorded minutes before: a test that starts"
        + " or ends beside it changes the machine between the two")
class BaselineGateTest {

    /**
     * Comparisons of an unchanged server with its baseline. The stored-baseline gate's false-alarm rate is measured
     * in ABGateBenchmark (docs/ci-gates.md); ten runs here catch intervals gone far too narrow (CI's five in twenty)
     * at half the build time of twenty.
     */
    private static final int COMPARISONS = 10;

    @TempDir
    Path reports;

    @TempDir
    Path baselines;

    private Events execute(Class<?> testCase, Map<String, String> parameters) {
        var request = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.baseline.dir", baselines.toString())
                .configurationParameter("goodput.progress", "off")
                // The client's own lag on a busy machine is UntrustworthyClientGateTest's subject, not this one's.
                .configurationParameter("goodput.client.untrustworthy", "warn");
        parameters.forEach(request::configurationParameter);
        return request.selectors(selectClass(testCase)).execute().testEvents();
    }

    /**
     * A server whose 40 ms to the first token is mostly its own. The client and the machine add a few milliseconds to
     * each measured TTFT, and how many moves from run to run on a shared runner (one CI run measured an unchanged 5 ms
     * server at 7.1 ms TTFT p50 when recording and 9.2 ms in later runs): a stored baseline with one trial a side
     * cannot tell that from the server (ci-gates.md says so and leads with the A/B gate), so this test keeps the
     * machine's share below the 10 % minimum change instead of asserting on it.
     */
    private static MockServer server(Duration tpot) {
        return MockServer.start(
                MockServerConfig.defaults().withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(40), tpot)));
    }

    @GoodputTest
    static class ChatGate {
        @ServerUnderTest
        static MockServer server;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 8)
        @LoadProfile(concurrency = 8, requests = 208, warmupRequests = 8)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        // p50 objectives: the comparison with the baseline, not the bounds, is what this gate is about.
        @Slo(metric = TPOT, percentile = 50, atMost = 1000)
        void chat() {}
    }

    private JsonNode gateJson(String testClass, String method) throws IOException {
        return new ObjectMapper()
                .readTree(reports.resolve(testClass)
                        .resolve(method)
                        .resolve(GateReport.JSON_FILE)
                        .toFile());
    }

    @Test
    void an_unchanged_server_is_never_regressed_and_a_slower_one_is() throws IOException {
        try (MockServer same = server(Duration.ofMillis(10))) {
            ChatGate.server = same;
            assertThat(GoodputExtensionTest.failureMessages(
                            execute(ChatGate.class, Map.of("goodput.baseline.record", "true"))))
                    .isEmpty();
            Path baseline = baselines.resolve("ChatGate/chat/baseline.json");
            assertThat(baseline).isRegularFile();
            assertThat(reports.resolve("ChatGate/chat/baseline.json")).isRegularFile();

            Map<String, Integer> verdicts = new TreeMap<>();
            List<String> falseAlarms = new ArrayList<>();
            for (int comparison = 0; comparison < COMPARISONS; comparison++) {
                Events events = execute(ChatGate.class, Map.of());
                Map<String, String> failures = GoodputExtensionTest.failureMessages(events);
                JsonNode gate = gateJson("ChatGate", "chat");
                String verdict = gate.at("/baseline/verdict").asText();
                verdicts.merge(verdict, 1, Integer::sum);
                if (verdict.equals("REGRESSED")) {
                    assertThat(failures.get("chat")).contains("REGRESSED vs baseline: ");
                    falseAlarms.add("comparison " + comparison + ": " + failures.get("chat"));
                } else {
                    assertThat(failures).as("comparison %d", comparison).isEmpty();
                }
            }
            // With one trial a side the intervals hold within-run noise only (the verdict's note says so), so a busy
            // moment on a shared machine can push one comparison past zero and the 10 % minimum. One false alarm in
            // ten is more than 95 % intervals admit on one side; two or more mean the intervals are too narrow.
            assertThat(falseAlarms)
                    .as("false alarms among %d unchanged comparisons", COMPARISONS)
                    .hasSizeLessThanOrEqualTo(1);
            System.out.println("unchanged server vs its own baseline, " + COMPARISONS + " comparisons: " + verdicts);
            // A comparison is INVALID when a trial's client fell behind (a busy machine); most must be judged.
            assertThat(verdicts.getOrDefault("INVALID", 0)).isLessThanOrEqualTo(COMPARISONS / 2);
        } finally {
            ChatGate.server = null;
        }

        try (MockServer slower = server(Duration.ofNanos(11_500_000))) {
            ChatGate.server = slower;
            Map<String, String> failures = GoodputExtensionTest.failureMessages(execute(ChatGate.class, Map.of()));
            assertThat(failures).containsOnlyKeys("chat");
            assertThat(failures.get("chat"))
                    .startsWith("ChatGate.chat(): REGRESSED vs baseline: ")
                    .contains("REGRESSED vs baseline: ")
                    .containsPattern("TPOT p50: 10\\.\\d+ -> 11\\.\\d+ ms, \\+1[3-7]\\.\\d %");
            JsonNode gate = gateJson("ChatGate", "chat");
            assertThat(gate.at("/verdict").asText()).isEqualTo("FAILED");
            IndexedReport indexed = ReportIndex.entries(reports).stream()
                    .filter(entry -> entry.test().startsWith("ChatGate"))
                    .findFirst()
                    .orElseThrow();
            assertThat(indexed.kind()).isEqualTo("gate");
            assertThat(indexed.baselineChange()).startsWith("REGRESSED (");

            assertThat(GoodputExtensionTest.failureMessages(
                            execute(ChatGate.class, Map.of("goodput.baseline.regression", "warn"))))
                    .isEmpty();
        } finally {
            ChatGate.server = null;
        }
    }

    @Test
    void a_regressed_gate_fails_with_the_load_and_the_requests_an_objective_failure_gives() throws IOException {
        // The failure message is the subject, not the client's lag: on a busy shared machine a run whose client fell
        // behind makes the comparison INVALID instead, so the lag limit is set well above such stalls.
        Map<String, String> tolerant = Map.of(GoodputConfiguration.CLIENT_SEND_LAG_LIMIT, "1000");
        try (MockServer same = server(Duration.ofMillis(10))) {
            ChatGate.server = same;
            Map<String, String> record = new HashMap<>(tolerant);
            record.put("goodput.baseline.record", "true");
            execute(ChatGate.class, record);
        } finally {
            ChatGate.server = null;
        }
        try (MockServer slower = server(Duration.ofMillis(13))) {
            ChatGate.server = slower;
            String failure = GoodputExtensionTest.failureMessages(execute(ChatGate.class, tolerant))
                    .get("chat");
            assertThat(failure)
                    .as("the gate against a server 30 % slower per token fails")
                    .isNotNull();
            // The first line says what failed the gate; the message ends as an objective failure's does.
            assertThat(failure.lines().findFirst().orElseThrow())
                    .startsWith("ChatGate.chat(): REGRESSED vs baseline: TPOT p50 +")
                    .endsWith(" (objectives met)");
            assertThat(failure)
                    .containsPattern("\n  TPOT p50: 10\\.\\d -> 1[23]\\.\\d ms, .+ REGRESSED\n(.+\n)*load: 8 concurrent"
                            + " users, 208 requests against http://127\\.0\\.0\\.1:\\d+ \\(model .+\\) from"
                            + " @ServerUnderTest field ChatGate\\.server\nrequests: 208 scheduled, 208 succeeded, 0 failed,"
                            + " 0 timed out, 0 cancelled \\(200 measured\\)\nreports: .+ChatGate.chat$");
        } finally {
            ChatGate.server = null;
        }
    }

    @GoodputTest
    static class OtherLoad {
        @ServerUnderTest
        static MockServer server;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 8)
        @LoadProfile(concurrency = 4, requests = 208, warmupRequests = 8)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        void chat() {}
    }

    @Test
    void a_baseline_of_another_load_is_refused_as_invalid_and_only_warns_by_default() throws IOException {
        try (MockServer same = server(Duration.ofMillis(10))) {
            ChatGate.server = same;
            OtherLoad.server = same;
            execute(ChatGate.class, Map.of("goodput.baseline.record", "true"));
            Files.createDirectories(baselines.resolve("OtherLoad/chat"));
            Files.copy(
                    baselines.resolve("ChatGate/chat/baseline.json"),
                    baselines.resolve("OtherLoad/chat/baseline.json"));

            assertThat(GoodputExtensionTest.failureMessages(execute(OtherLoad.class, Map.of())))
                    .isEmpty();
            JsonNode gate = gateJson("OtherLoad", "chat");
            assertThat(gate.at("/baseline/verdict").asText()).isEqualTo("INVALID");
            assertThat(gate.at("/baseline/differences").toString()).contains("load.concurrency: baseline 8, current 4");

            Map<String, String> failures = GoodputExtensionTest.failureMessages(
                    execute(OtherLoad.class, Map.of("goodput.baseline.invalid", "fail")));
            assertThat(failures.get("chat"))
                    .contains("INVALID comparison with the baseline: load.concurrency: baseline 8, current 4");
        } finally {
            ChatGate.server = null;
            OtherLoad.server = null;
        }
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class SmallGate {
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 8, requests = 48)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        void gate() {}
    }

    @Test
    void an_unreadable_baseline_is_an_invalid_comparison_under_its_policy_worded_without_the_parsers_internals()
            throws IOException {
        Path file = baselines.resolve("SmallGate/gate/baseline.json");
        Files.createDirectories(file.getParent());
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("", "the file is empty");
        cases.put("not a baseline", "unrecognized token 'not' at line 1, column 1");
        cases.put("{\"format\": 3, \"test\": \"SmallGate.gate\", \"trials\": [", "at line 1");
        cases.put("{\"format\": \"three\"}", "field format does not have the expected shape at line 1, column 12");
        for (Map.Entry<String, String> corrupt : cases.entrySet()) {
            Files.writeString(file, corrupt.getKey());

            assertThat(GoodputExtensionTest.failureMessages(execute(SmallGate.class, Map.of())))
                    .as("the default policy warns")
                    .isEmpty();
            JsonNode gate = gateJson("SmallGate", "gate");
            assertThat(gate.at("/baseline/verdict").asText()).isEqualTo("INVALID");
            assertThat(reports.resolve("SmallGate/gate/result.json"))
                    .as("the run's own reports")
                    .exists();

            String failure = GoodputExtensionTest.failureMessages(
                            execute(SmallGate.class, Map.of("goodput.baseline.invalid", "fail")))
                    .get("gate");
            assertThat(failure)
                    .as("for %s", corrupt.getKey())
                    .contains("INVALID comparison with the baseline: " + file + " is not a Goodput baseline: ")
                    .contains(corrupt.getValue())
                    .doesNotContain("Source", "REDACTED", "jackson", "Jackson", "dev.goodput.core.compare")
                    .doesNotContainPattern("\\bline: \\d");
        }
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class ThreeTrials {
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 8, requests = 48)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        @Trials(3)
        void gate() {}
    }

    @Test
    void trials_are_judged_together_and_each_is_kept_in_the_reports() throws IOException {
        assertThat(GoodputExtensionTest.failureMessages(execute(ThreeTrials.class, Map.of())))
                .isEmpty();
        Path gate = reports.resolve("ThreeTrials/gate");
        for (int trial = 1; trial <= 3; trial++) {
            assertThat(gate.resolve("trial-" + trial + "/report.html")).isRegularFile();
        }
        JsonNode json = gateJson("ThreeTrials", "gate");
        assertThat(json.get("trials").asInt()).isEqualTo(3);
        assertThat(json.get("runs")).hasSize(3);
        assertThat(json.at("/variation_between_trials/TTFT p50").isNumber()).isTrue();
        assertThat(json.get("objectives").get(0).asText()).contains("n=144").contains("MET");
        assertThat(Files.readString(gate.resolve(GateReport.MARKDOWN_FILE))).contains("Variation between trials");
        assertThat(ReportIndex.entries(reports))
                .extracting(IndexedReport::link)
                .containsExactly("ThreeTrials/gate/gate.html");

        assertThat(GoodputExtensionTest.failureMessages(
                        execute(ThreeTrials.class, Map.of("goodput.trials.scale", "0.34"))))
                .isEmpty();
        // One trial and no baseline is a plain run again: its own page, no gate page left over from before.
        assertThat(gate.resolve("report.html")).isRegularFile();
        assertThat(gate.resolve(GateReport.JSON_FILE)).doesNotExist();
        assertThat(ReportIndex.entries(reports))
                .extracting(IndexedReport::link)
                .containsExactly("ThreeTrials/gate/report.html");
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class AlwaysInconclusive {
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 8, requests = 24)
        @Slo(metric = TTFT, percentile = 99, atMost = 2000)
        @Trials(value = 1, retries = 2)
        void gate() {}
    }

    @Test
    void the_noise_policy_repeats_an_inconclusive_trial_and_keeps_every_attempt() throws IOException {
        Map<String, String> parameters = new HashMap<>();
        parameters.put("goodput.slo.inconclusive", "warn");
        assertThat(GoodputExtensionTest.failureMessages(execute(AlwaysInconclusive.class, parameters)))
                .isEmpty();
        Path gate = reports.resolve("AlwaysInconclusive/gate");
        assertThat(gate.resolve("trial-1/report.html")).isRegularFile();
        assertThat(gate.resolve("trial-1-attempt-2/report.html")).isRegularFile();
        assertThat(gate.resolve("trial-1-attempt-3/report.html")).isRegularFile();
        JsonNode runs = gateJson("AlwaysInconclusive", "gate").get("runs");
        assertThat(runs).hasSize(3);
        assertThat(runs.get(0).get("counted").asBoolean()).isFalse();
        // Inconclusive p99 TTFT, or on a busy machine a client that fell behind: either repeats the trial.
        assertThat(runs.get(0).get("repeated_because").asText()).containsAnyOf("p99 TTFT", "client fell behind");
        assertThat(runs.get(2).get("counted").asBoolean()).isTrue();
    }
}
