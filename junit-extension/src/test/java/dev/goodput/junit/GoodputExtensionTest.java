package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.E2EL;
import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.goodput.core.load.Load;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.report.GateReport;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.OutputDirectoryCreator;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.reporting.FileEntry;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import org.opentest4j.AssertionFailedError;

/** The extension, run through JUnit's own engine: what a user's gate does, end to end. */
class GoodputExtensionTest {

    @TempDir
    Path reports;

    private EngineExecutionResults execute(Class<?> testCase, Map<String, String> parameters) {
        var request = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                // These tests check the extension's mechanics, not performance; on a shared two-core CI machine
                // the client's own lag must not decide them (UntrustworthyClientGateTest covers the policy).
                .configurationParameter("goodput.client.untrustworthy", "warn");
        parameters.forEach(request::configurationParameter);
        return request.selectors(selectClass(testCase)).execute();
    }

    private Events tests(Class<?> testCase) {
        return execute(testCase, Map.of()).testEvents();
    }

    /** Asserts that every test passed, showing the failures' messages otherwise. */
    private static void assertAllPassed(Events events, int count) {
        assertThat(failureMessages(events)).isEmpty();
        events.assertStatistics(stats -> stats.succeeded(count));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Passing and failing gates

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class PassingGate {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 8, requests = 40)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        @Slo(metric = TPOT, mean = true, atMost = 1, unit = java.util.concurrent.TimeUnit.SECONDS)
        @Slo(metric = GOODPUT, atLeast = 1)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_run_the_load_before_the_body_and_pass_when_every_objective_is_met() throws IOException {
        tests(PassingGate.class)
                .assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));

        RunResult result = PassingGate.captured;
        assertThat(result.accounting().scheduled()).isEqualTo(40);
        assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(40);
        assertThat(result.verdicts()).extracting(v -> v.verdict()).containsOnly(Verdict.MET);
        assertThat(result.verdicts()).hasSize(3);
        Path directory = reports.resolve("PassingGate").resolve("gate");
        assertThat(directory.resolve("result.json")).isRegularFile();
        assertThat(directory.resolve("requests.csv")).isRegularFile();
        assertThat(Files.readString(directory.resolve("summary.txt"))).contains("requests: 40 scheduled");
    }

    @Test
    void should_publish_the_key_figures_as_a_report_entry_and_attach_the_reports_to_the_test() {
        Path attached = reports.resolve("attached");
        Events events = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn")
                .outputDirectoryCreator(new OutputDirectoryCreator() {
                    @Override
                    public Path getRootDirectory() {
                        return attached;
                    }

                    @Override
                    public Path createOutputDirectory(TestDescriptor descriptor) throws IOException {
                        return Files.createDirectories(attached.resolve(descriptor.getDisplayName()));
                    }
                })
                .selectors(selectClass(PassingGate.class))
                .execute()
                .allEvents();
        assertThat(failureMessages(events)).isEmpty();

        assertThat(events.reportingEntryPublished().stream())
                .singleElement()
                .extracting(event -> event.getRequiredPayload(ReportEntry.class).getKeyValuePairs())
                .satisfies(figures -> assertThat(figures)
                        .containsEntry("goodput.requests", "40")
                        .containsKeys("goodput.goodput_rps", "goodput.ttft_p99_ms", "goodput.error_rate"));
        Path directory = reports.resolve("PassingGate").resolve("gate");
        assertThat(events.fileEntryPublished().stream().map(event -> event.getRequiredPayload(FileEntry.class)))
                .allSatisfy(file -> assertThat(file.getPath())
                        .startsWith(attached)
                        .hasSameBinaryContentAs(directory.resolve(file.getPath().getFileName())))
                .extracting(file -> file.getPath().getFileName().toString() + " "
                        + file.getMediaType().orElse(""))
                .containsExactly("result.json application/json", "requests.csv text/csv", "report.html text/html");
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class ViolatedGate {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 8, requests = 40)
        @Slo(metric = TTFT, percentile = 50, atMost = 10) // the fixed model's TTFT is 50 ms
        @Slo(metric = E2EL, max = true, atMost = 10, unit = java.util.concurrent.TimeUnit.SECONDS)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_fail_with_every_objective_its_measurement_the_load_and_the_reports() {
        Events events = tests(ViolatedGate.class);
        events.assertStatistics(stats -> stats.started(1).failed(1));

        RunResult result = ViolatedGate.captured;
        String expectedStart = "ViolatedGate.gate(): 1 of 2 objectives not met\n"
                + "  " + result.verdicts().get(0).describe() + "\n"
                + "  " + result.verdicts().get(1).describe() + "\n"
                + "load: 8 concurrent users, 40 requests against "
                + result.spec().server()
                + " from @SimulatedServer on ViolatedGate (preset fixed, http://127.0.0.1:";
        assertThat(result.verdicts().get(0).verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(result.verdicts().get(0).describe()).startsWith("p50 TTFT: measured ");
        Throwable failure = events.failed()
                .list()
                .get(0)
                .getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
        assertThat(failure).isInstanceOf(AssertionFailedError.class);
        assertThat(failure.getMessage())
                .startsWith(expectedStart)
                .contains("\nrequests: 40 scheduled, 40 succeeded, 0 failed, 0 timed out, 0 cancelled (40 measured)\n")
                .endsWith("reports: " + reports.resolve("ViolatedGate").resolve("gate"));
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class InconclusiveGate {
        // A closed loop with only a duration measures a count not known before the run, so it is not refused; in
        // half a second 8 users get nowhere near the 368 requests a p99 needs (the fixed model takes 80 ms each).
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 8, durationSeconds = 0.5)
        @Slo(metric = TTFT, percentile = 99, atMost = 2000)
        void gate() {}
    }

    @Test
    void should_fail_an_inconclusive_gate_by_default_and_pass_it_when_told_to_warn() throws IOException {
        Events failing = tests(InconclusiveGate.class);
        failing.assertThatEvents()
                .haveExactly(
                        1,
                        finishedWithFailure(
                                instanceOf(AssertionFailedError.class),
                                message(m -> m.matches("(?s).*INCONCLUSIVE \\(n=\\d+ is too few for a 95% upper bound"
                                        + " on p99; need at least 368\\).*"))));
        assertThat(Files.readString(reports.resolve("InconclusiveGate/gate/summary.txt")))
                .contains("\nnote: p99 TTFT needs at least 368 measured requests for a 95% upper bound; a closed loop"
                        + " (8 concurrent users) with only a duration limit (500 ms) measures a number of requests"
                        + " that is not known before the run\n");

        execute(InconclusiveGate.class, Map.of("goodput.slo.inconclusive", "warn"))
                .testEvents()
                .assertStatistics(stats -> stats.succeeded(1).failed(0));
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class SteadyStateOnlyGate {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(rate = 200, requests = 40)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_judge_only_the_steady_state_when_configured_and_call_a_run_without_one_inconclusive() {
        // 40 requests are too few to find a steady state: the p50 any run meets becomes inconclusive.
        execute(SteadyStateOnlyGate.class, Map.of("goodput.slo.steady-state-only", "on"))
                .testEvents()
                .assertStatistics(stats -> stats.succeeded(0).failed(1));

        execute(
                        SteadyStateOnlyGate.class,
                        Map.of("goodput.slo.steady-state-only", "on", "goodput.slo.inconclusive", "warn"))
                .testEvents()
                .assertStatistics(stats -> stats.succeeded(1).failed(0));
        RunResult result = SteadyStateOnlyGate.captured;
        assertThat(result.spec().judgeSteadyStateOnly()).isTrue();
        assertThat(result.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(v.reason()).startsWith("judged on the steady state only, and there was none: too few");
        });

        execute(SteadyStateOnlyGate.class, Map.of())
                .testEvents()
                .assertStatistics(stats -> stats.succeeded(1).failed(0));
        assertThat(SteadyStateOnlyGate.captured.spec().judgeSteadyStateOnly()).isFalse();
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class TooFewForItsPercentile {
        @ServerUnderTest
        static dev.goodput.mock.MockServer server;

        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(rate = 200, requests = 410, warmupRequests = 10)
        // p50: a bound a run of this size meets, with 400 requests for the correlation a loaded machine brings (at
        // 100 a CI run on 2026-11-29 judged it INCONCLUSIVE); the p99.9 beside it is what the test is about.
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        @Slo(metric = TTFT, percentile = 99.9, atMost = 2000)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_refuse_a_load_too_small_for_a_percentile_before_any_request_and_only_note_it_when_told_to_warn()
            throws IOException {
        try (dev.goodput.mock.MockServer server = dev.goodput.mock.MockServer.start(
                MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("fixed")))) {
            TooFewForItsPercentile.server = server;
            Events refused = tests(TooFewForItsPercentile.class);

            assertThat(failureMessages(refused))
                    .containsExactly(Map.entry(
                            "gate",
                            "@Slo(metric = TTFT) on TooFewForItsPercentile.gate(): p99.9 TTFT needs at least 3,688"
                                    + " measured requests for a 95% upper bound; the load plans 400 (requests 410 -"
                                    + " warmupRequests 10)"));
            refused.assertThatEvents()
                    .haveExactly(1, finishedWithFailure(instanceOf(ExtensionConfigurationException.class)));
            assertThat(server.groundTruth()).as("requests the server received").isEmpty();

            Events warned = execute(TooFewForItsPercentile.class, Map.of("goodput.slo.inconclusive", "warn"))
                    .testEvents();

            assertAllPassed(warned, 1);
            RunResult result = TooFewForItsPercentile.captured;
            assertThat(result.accounting().scheduled()).isEqualTo(410);
            assertThat(result.verdicts())
                    .extracting(v -> v.verdict())
                    .containsExactly(Verdict.MET, Verdict.INCONCLUSIVE);
            String note = "p99.9 TTFT needs at least 3,688 measured requests for a 95% upper bound; the load plans 400"
                    + " (requests 410 - warmupRequests 10), so its verdict cannot be MET";
            assertThat(result.notes()).containsExactly(note);
            assertThat(Files.readString(reports.resolve("TooFewForItsPercentile/gate/summary.txt")))
                    .contains("\nnote: " + note + "\n");
        } finally {
            TooFewForItsPercentile.server = null;
        }
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class ScaledBelowItsPercentile {
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 8, requests = 44, warmupRequests = 4)
        @Slo(metric = TPOT, percentile = 90, atMost = 40)
        void gate() {}
    }

    @Test
    void should_say_a_scaled_load_became_too_small_naming_the_scale() {
        assertThat(failureMessages(execute(ScaledBelowItsPercentile.class, Map.of("goodput.load.scale", "0.5"))
                        .testEvents()))
                .containsExactly(Map.entry(
                        "gate",
                        "@Slo(metric = TPOT) on ScaledBelowItsPercentile.gate(): p90 TPOT needs at least 36 measured"
                                + " requests for a 95% upper bound; the load plans 20 (requests 22 - warmupRequests"
                                + " 2), after goodput.load.scale = 0.5"));
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class SizedForItsObjectives {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(rate = 200, requests = LoadProfile.AUTO, warmupRequests = 4)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        @Slo(metric = TTFT, percentile = 90, atMost = 2000)
        void gate(RunResult result) {
            captured = result;
        }

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 200, requests = LoadProfile.AUTO)
        @Slo(metric = GOODPUT, atLeast = 1)
        void nothingToSizeFor() {}
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class LastsUntilDecided {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(rate = 50, requests = 2000, untilDecidedFrom = 100, warmupRequests = 4)
        @Slo(metric = TTFT, percentile = 90, atMost = 2000)
        void gate(RunResult result) {
            captured = result;
        }

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 200, untilDecidedFrom = 100, durationSeconds = 1)
        @Slo(metric = TTFT, percentile = 90, atMost = 2000)
        void noMaximum() {}
    }

    @Test
    void should_stop_a_run_that_lasts_until_decided_at_its_first_deciding_look() {
        Events events = execute(LastsUntilDecided.class, Map.of()).testEvents();

        assertThat(failureMessages(events))
                .containsExactly(Map.entry(
                        "noMaximum",
                        "@LoadProfile on LastsUntilDecided.noMaximum(): untilDecidedFrom = 100 needs requests as the"
                                + " run's maximum, a count, not none"));
        RunResult result = LastsUntilDecided.captured;
        // A bound 30 times the server's TTFT is decided as soon as the look has effective samples enough for a p90's
        // upper bound, on a quiet machine at the first; the result judges exactly the deciding look's requests.
        assertThat(result.runLength().decided()).isTrue();
        assertThat(result.runLength().looks()).isNotEmpty();
        RunLength.Look deciding =
                result.runLength().looks().get(result.runLength().looks().size() - 1);
        assertThat(deciding.undecided()).isZero();
        assertThat(result.accounting().measured()).isEqualTo(deciding.measuredRequests());
        assertThat(result.verdicts()).extracting(v -> v.verdict()).containsOnly(Verdict.MET);
        assertThat(result.runLength().stopReason())
                .startsWith("decided at look " + deciding.number() + " of " + deciding.planned());
    }

    @Test
    void should_size_an_auto_request_limit_for_the_strictest_percentile_plus_the_warmup() {
        Events events = execute(SizedForItsObjectives.class, Map.of("goodput.load.scale", "0.5"))
                .testEvents();

        assertThat(failureMessages(events))
                .containsExactly(Map.entry(
                        "nothingToSizeFor",
                        "@LoadProfile on SizedForItsObjectives.nothingToSizeFor(): requests = AUTO needs a percentile"
                                + " objective on a per-request metric (TTFT, TPOT, E2EL, ...) to size the run for; the"
                                + " objectives are [goodput ≥ 1.00 req/s]"));
        RunResult result = SizedForItsObjectives.captured;
        // p90 needs 36 measured requests whatever the scale; the warm-up of 4 is scaled to 2.
        assertThat(result.accounting().scheduled()).isEqualTo(38);
        assertThat(result.accounting().measured()).isEqualTo(36);
        assertThat(result.verdicts()).extracting(v -> v.verdict()).containsOnly(Verdict.MET);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Bad annotations fail before any load is sent

    @GoodputTest
    static class BadAnnotations {
        @ServerUnderTest
        static dev.goodput.mock.MockServer server;

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, concurrency = 16, requests = 10)
        void rateAndConcurrency() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = -1, requests = 10)
        void negativeRate() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = TTFT, percentile = 0, atMost = 100)
        void percentileZero() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = TTFT, percentile = 100.5, atMost = 100)
        void percentileAboveHundred() {}

        @org.junit.jupiter.api.Test
        @Workload(outputTokens = 1)
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = TPOT, percentile = 90, atMost = 100)
        void metricTheWorkloadCannotProduce() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = TTFT, atMost = 100)
        void noStatistic() {}

        @org.junit.jupiter.api.Test
        @Slo(metric = TTFT, percentile = 99, atMost = 100)
        void objectiveWithoutLoad() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4)
        void noLimit() {}
    }

    @Test
    void should_reject_bad_annotations_naming_the_attribute_and_value_before_sending_anything() throws Exception {
        try (dev.goodput.mock.MockServer server = dev.goodput.mock.MockServer.start(
                MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("fixed")))) {
            BadAnnotations.server = server;
            Events events = tests(BadAnnotations.class);

            events.assertStatistics(stats -> stats.started(8).failed(8));
            assertThat(failureMessages(events))
                    .containsEntry(
                            "rateAndConcurrency",
                            "@LoadProfile on BadAnnotations.rateAndConcurrency(): set either rate (open loop) or"
                                    + " concurrency (closed loop), not both (rate = 4.0, concurrency = 16)")
                    .containsEntry(
                            "negativeRate",
                            "@LoadProfile on BadAnnotations.negativeRate(): rate = -1.0 must be a finite number of"
                                    + " requests/s above 0")
                    .containsEntry(
                            "percentileZero",
                            "@Slo(metric = TTFT) on BadAnnotations.percentileZero(): percentile = 0.0 must be above 0"
                                    + " and at most 100")
                    .containsEntry(
                            "percentileAboveHundred",
                            "@Slo(metric = TTFT) on BadAnnotations.percentileAboveHundred(): percentile = 100.5 must"
                                    + " be above 0 and at most 100")
                    .containsEntry(
                            "metricTheWorkloadCannotProduce",
                            "@Slo on BadAnnotations.metricTheWorkloadCannotProduce(): an objective on TPOT needs at"
                                    + " least 2 output tokens per request (a gap between tokens), but the workload"
                                    + " asks for outputTokens = 1")
                    .containsEntry(
                            "noStatistic",
                            "@Slo(metric = TTFT) on BadAnnotations.noStatistic(): set exactly one of percentile,"
                                    + " mean = true or max = true (found 0)")
                    .containsEntry(
                            "objectiveWithoutLoad",
                            "@Slo on BadAnnotations.objectiveWithoutLoad() has no load to judge: add"
                                    + " @LoadProfile to the method or the class")
                    .containsEntry(
                            "noLimit",
                            "@LoadProfile on BadAnnotations.noLimit(): a load needs a limit: set requests,"
                                    + " durationSeconds or both");
            assertThat(events.failed().list())
                    .allSatisfy(
                            event -> assertThat(event.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                                            .orElseThrow()
                                            .getThrowable()
                                            .orElseThrow())
                                    .isInstanceOf(ExtensionConfigurationException.class));
            assertThat(server.groundTruth()).as("requests the server received").isEmpty();
        } finally {
            BadAnnotations.server = null;
        }
    }

    @Test
    void should_reject_a_bad_configuration_parameter_naming_it_and_its_value() {
        Events events =
                execute(PassingGate.class, Map.of("goodput.load.scale", "fast")).testEvents();
        assertThat(failureMessages(events))
                .containsEntry(
                        "gate",
                        "configuration parameter goodput.load.scale = 'fast' is not a number above 0 (for example"
                                + " 0.2 for a quick run, 5 for a long one)");
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class ViolatedOverTrials {
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 4, requests = 12)
        @Slo(metric = TTFT, percentile = 50, atMost = 10) // the fixed model's TTFT is 50 ms
        @Trials(2)
        void gate() {}
    }

    @Test
    @DisplayName("a gate with a gate page is judged once: the page's verdict and the test's failure are one judgement")
    void should_judge_a_gate_once_for_its_page_and_its_failure() throws IOException {
        GateVerdict.JUDGEMENTS.remove("ViolatedOverTrials.gate()");

        Map<String, String> failures = failureMessages(tests(ViolatedOverTrials.class));

        assertThat(GateVerdict.JUDGEMENTS.get("ViolatedOverTrials.gate()")).hasValue(1);
        assertThat(failures.get("gate")).startsWith("ViolatedOverTrials.gate(): 1 of 1 objectives not met");
        String page =
                Files.readString(reports.resolve("ViolatedOverTrials/gate").resolve(GateReport.HTML_FILE));
        assertThat(page).contains("<meta name=\"goodput-verdict\" content=\"FAILED\">");
    }

    static Map<String, String> failureMessages(Events events) {
        Map<String, String> messages = new java.util.TreeMap<>();
        events.failed().stream()
                .forEach(event -> messages.put(
                        ((org.junit.platform.engine.support.descriptor.MethodSource)
                                        event.getTestDescriptor().getSource().orElseThrow())
                                .getMethodName(),
                        event.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                                .orElseThrow()
                                .getThrowable()
                                .orElseThrow()
                                .getMessage()));
        return messages;
    }

    // ---------------------------------------------------------------------------------------------------------
    // Server resolution and configuration parameters

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class DeclaresAServer {
        @ServerUnderTest
        static dev.goodput.mock.MockServer field;

        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 2, requests = 10)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_prefer_the_url_parameter_to_a_server_field_and_the_field_to_the_mock_server_annotation()
            throws Exception {
        PerformanceModel fixed = PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(1));
        try (dev.goodput.mock.MockServer fromParameter = dev.goodput.mock.MockServer.start(
                        MockServerConfig.defaults().withPerformanceModel(fixed));
                dev.goodput.mock.MockServer fromField = dev.goodput.mock.MockServer.start(
                        MockServerConfig.defaults().withPerformanceModel(fixed).withModelName("field-model"))) {
            DeclaresAServer.field = fromField;

            assertAllPassed(
                    execute(
                                    DeclaresAServer.class,
                                    Map.of(
                                            "goodput.server.url", fromParameter.baseUrl(),
                                            "goodput.server.model", fromParameter.modelName()))
                            .testEvents(),
                    1);
            // The load's 10 requests and the preflight's one.
            assertThat(fromParameter.groundTruth()).hasSize(11);
            assertThat(fromField.groundTruth()).isEmpty();

            assertAllPassed(tests(DeclaresAServer.class), 1);
            assertThat(fromField.groundTruth()).hasSize(11);
            assertThat(DeclaresAServer.captured.spec().server().model()).isEqualTo("field-model");

            DeclaresAServer.field = null;
            assertThat(failureMessages(tests(DeclaresAServer.class)))
                    .containsEntry(
                            "gate",
                            "@ServerUnderTest field DeclaresAServer.field holds null; it must hold a"
                                    + " dev.goodput.core.ServerEndpoint, a dev.goodput.mock.MockServer or a"
                                    + " dev.goodput.core.StartableServer such as a container from goodput-testcontainers");
        } finally {
            DeclaresAServer.field = null;
        }
    }

    @GoodputTest
    static class DefaultServerAndScale {
        static RunResult first;
        static RunResult second;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 2, requests = 20, warmupRequests = 4)
        void first(RunResult result) {
            first = result;
        }

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 2, requests = 20)
        void second(RunResult result) {
            second = result;
        }
    }

    @Test
    void should_share_one_default_simulated_server_per_class_scale_the_load_and_close_the_server() throws Exception {
        execute(DefaultServerAndScale.class, Map.of("goodput.load.scale", "0.5"))
                .testEvents()
                .assertStatistics(stats -> stats.succeeded(2));

        RunResult first = DefaultServerAndScale.first;
        assertThat(first.accounting().scheduled()).isEqualTo(10);
        assertThat(first.accounting().measured()).isEqualTo(8);
        assertThat(first.spec().server().model()).isEqualTo(MockServerConfig.DEFAULT_MODEL_NAME);
        assertThat(DefaultServerAndScale.second.spec().server().baseUrl())
                .isEqualTo(first.spec().server().baseUrl());
        URI health = URI.create(first.spec().server().baseUrl() + "/health");
        HttpClient client = HttpClient.newHttpClient();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> client.send(
                        HttpRequest.newBuilder(health)
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.discarding()))
                .as("the class's simulated server is closed after the class")
                .isInstanceOf(ConnectException.class);
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class UsesRunner {
        static RunResult first;

        @org.junit.jupiter.api.Test
        void twoRuns(GoodputRunner goodput) {
            first = goodput.run(
                    WorkloadSpec.synthetic().inputTokens(4).outputTokens(2).build(),
                    Load.concurrency(2).requests(6));
            goodput.run(builder -> builder.workload(WorkloadSpec.synthetic()
                            .inputTokens(4)
                            .outputTokens(2)
                            .build())
                    .load(Load.constantRate(50).requests(4)));
        }
    }

    @Test
    void should_give_a_runner_for_runs_of_the_methods_own_with_their_reports() {
        tests(UsesRunner.class).assertStatistics(stats -> stats.succeeded(1));
        assertThat(UsesRunner.first.accounting().scheduled()).isEqualTo(6);
        assertThat(reports.resolve("UsesRunner").resolve("twoRuns-run1").resolve("result.json"))
                .isRegularFile();
        assertThat(reports.resolve("UsesRunner").resolve("twoRuns-run2").resolve("requests.csv"))
                .isRegularFile();
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    @Workload(inputTokens = 8, outputTokens = 4)
    @LoadProfile(concurrency = 4, requests = 20)
    @Slo(metric = dev.goodput.core.slo.Metric.ERROR_RATE, atMost = 0) // class-level: applies to every method
    static class RunLevelObjectives {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Slo(metric = TPOT, mean = true, atMost = 1) // fixed TPOT is 10 ms
        @Slo(metric = E2EL, max = true, atMost = 60, unit = java.util.concurrent.TimeUnit.SECONDS)
        @Slo(metric = GOODPUT, atLeast = 1000)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_judge_class_and_method_objectives_together_and_list_each_in_the_message() {
        Map<String, String> messages = failureMessages(tests(RunLevelObjectives.class));

        RunResult result = RunLevelObjectives.captured;
        assertThat(result.verdicts())
                .extracting(v -> v.objective().toString())
                .containsExactly(
                        "error rate ≤ 0.00 %",
                        "mean TPOT ≤ 1.00 ms", "max E2EL ≤ 60000.00 ms", "goodput ≥ 1000.00 req/s");
        assertThat(result.verdicts())
                .extracting(v -> v.verdict())
                .containsExactly(Verdict.MET, Verdict.VIOLATED, Verdict.MET, Verdict.VIOLATED);
        String message = messages.get("gate");
        assertThat(message).startsWith("RunLevelObjectives.gate(): 2 of 4 objectives not met\n");
        for (var verdict : result.verdicts()) {
            assertThat(message).contains("\n  " + verdict.describe() + "\n");
        }
        assertThat(result.verdicts().get(3).describe())
                .matches(
                        "goodput: measured [0-9.]+ req/s \\(95% CI [0-9.]+ req/s \\.\\. [0-9.]+ req/s, n=20(, effectively [0-9]+)?\\), bound ≥ 1000.00 req/s: VIOLATED");
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class MethodLevelServer {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @SimulatedServer(preset = "single-slot", modelName = "method-model")
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 1, requests = 3)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_prefer_a_methods_mock_server_to_the_classs() {
        assertAllPassed(tests(MethodLevelServer.class), 1);
        assertThat(MethodLevelServer.captured.spec().server().model()).isEqualTo("method-model");
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class ParallelA {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 8)
        @LoadProfile(concurrency = 4, requests = 16)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class ParallelB {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 8)
        @LoadProfile(concurrency = 4, requests = 16)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_never_run_two_gates_at_once_even_with_parallel_execution() {
        Events events = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                .selectors(selectClass(ParallelA.class), selectClass(ParallelB.class))
                .execute()
                .testEvents();
        assertAllPassed(events, 2);

        long[] a = span(ParallelA.captured);
        long[] b = span(ParallelB.captured);
        assertThat(a[1] <= b[0] || b[1] <= a[0])
                .as(
                        "load of A %s and of B %s must not overlap",
                        java.util.Arrays.toString(a), java.util.Arrays.toString(b))
                .isTrue();
    }

    private static long[] span(RunResult result) {
        long start = result.records().stream()
                .mapToLong(r -> r.intendedNanos())
                .min()
                .orElseThrow();
        long end = result.records().stream().mapToLong(r -> r.endNanos()).max().orElseThrow();
        return new long[] {start, end};
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class ParameterizedGate {
        @org.junit.jupiter.params.ParameterizedTest
        @org.junit.jupiter.params.provider.ValueSource(ints = {2, 4})
        void sweep(int users, GoodputRunner goodput) {
            goodput.run(
                    WorkloadSpec.synthetic().inputTokens(8).outputTokens(2).build(),
                    Load.concurrency(users).requests(10));
        }
    }

    @Test
    void should_keep_the_reports_of_every_invocation_of_a_parameterized_gate() throws IOException {
        assertAllPassed(tests(ParameterizedGate.class), 2);
        try (var directories = Files.list(reports.resolve("ParameterizedGate"))) {
            assertThat(directories.map(d -> d.getFileName().toString()))
                    .containsExactlyInAnyOrder("sweep-1-run1", "sweep-2-run1");
        }
    }
}
