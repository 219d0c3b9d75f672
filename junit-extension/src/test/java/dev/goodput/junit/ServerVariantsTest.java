package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.report.VariantComparison;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.mock.PerformanceModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** {@link ServerVariants}, run through JUnit's own engine against simulated servers on loopback. */
class ServerVariantsTest {

    @TempDir
    Path reports;

    private Events tests(Class<?> testCase) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                // The extension's mechanics are under test, not the shared CI machine's send lag.
                .configurationParameter("goodput.client.untrustworthy", "warn")
                .selectors(selectClass(testCase))
                .execute()
                .testEvents();
    }

    /** A server whose first token takes 300 ms, far over the 150 ms objective. */
    static ServerVariant slow() {
        return ServerVariant.simulated("slow", PerformanceModel.fixed(Duration.ofMillis(300), Duration.ofMillis(10)));
    }

    /** A server whose first token takes 50 ms. */
    static ServerVariant fast() {
        return ServerVariant.simulated("fast", PerformanceModel.preset("fixed"));
    }

    @GoodputTest
    static class OneTooSlow {
        static VariantResults captured;

        static Stream<ServerVariant> variants() {
            return Stream.of(slow(), fast());
        }

        @org.junit.jupiter.api.Test
        @ServerVariants("variants")
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 4, requests = 20)
        @Slo(metric = TTFT, percentile = 50, atMost = 150)
        void gate(VariantResults results) {
            captured = results;
        }
    }

    @Test
    void should_fail_under_require_all_naming_the_variant_that_missed_its_objectives() throws Exception {
        Map<String, String> failures = GoodputExtensionTest.failureMessages(tests(OneTooSlow.class));

        VariantResults results = OneTooSlow.captured;
        assertThat(results.names()).containsExactly("slow", "fast");
        assertThat(results.passed("slow")).isFalse();
        assertThat(results.passed("fast")).isTrue();
        assertThat(results.best()).contains("fast");
        assertThatThrownBy(() -> results.get("medium"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no server variant is named 'medium'; the variants are [slow, fast]");
        assertThat(failures).containsOnlyKeys("gate");
        String message = failures.get("gate");
        assertThat(message)
                .startsWith("OneTooSlow.gate(): 1 of 2 server variants failed (@ServerVariants(require = ALL)):"
                        + " [slow]\n### OneTooSlow.gate: 1 of 2 variants passed; best: fast (goodput ")
                .contains("OneTooSlow.gate() [variant slow]: 1 of 1 objectives not met\n  p50 TTFT")
                .contains("from the simulated server of variant 'slow'")
                .doesNotContain("[variant fast]");
    }

    @GoodputTest
    static class AnyWillDo {
        static VariantResults captured;

        static List<ServerVariant> variants() {
            return List.of(slow(), fast());
        }

        @org.junit.jupiter.api.Test
        @ServerVariants(value = "variants", require = ServerVariants.Require.ANY)
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 4, requests = 20)
        @Slo(metric = TTFT, percentile = 50, atMost = 150)
        void gate(VariantResults results) {
            captured = results;
        }
    }

    @Test
    void should_pass_under_require_any_and_write_a_table_whose_rows_are_the_measured_results() throws Exception {
        Events events = tests(AnyWillDo.class);

        assertThat(GoodputExtensionTest.failureMessages(events)).isEmpty();
        events.assertStatistics(stats -> stats.succeeded(1));
        VariantResults results = AnyWillDo.captured;
        RunResult slow = results.get("slow");
        RunResult fast = results.get("fast");
        assertThat(fast.goodput()).isGreaterThan(slow.goodput());
        assertThat(slow.summary(TTFT).percentile(50))
                .isGreaterThan(Duration.ofMillis(250).toNanos());

        Path directory = reports.resolve("AnyWillDo").resolve("gate");
        assertThat(directory.resolve("slow").resolve("report.html")).isRegularFile();
        assertThat(directory.resolve("fast").resolve("result.json")).isRegularFile();
        assertThat(directory.resolve(VariantComparison.HTML_FILE)).isRegularFile();
        List<String> markdown = Files.readAllLines(directory.resolve(VariantComparison.MARKDOWN_FILE));
        assertThat(markdown.get(0))
                .isEqualTo(String.format(
                        Locale.ROOT,
                        "### AnyWillDo.gate: 1 of 2 variants passed; best: fast (goodput %.2f req/s)",
                        fast.goodput()));
        // Declared order, not ranked: the record of a tuning session reads in the order it was planned.
        assertThat(markdown.get(4)).startsWith("| slow | FAILED | 0/1 | ");
        assertThat(markdown.get(5))
                .startsWith(String.format(Locale.ROOT, "| fast | PASSED | 1/1 | %.2f req/s | ", fast.goodput()));
        List<String> csv = Files.readAllLines(directory.resolve(VariantComparison.CSV_FILE));
        assertThat(csv.get(0)).isEqualTo(VariantComparison.CSV_HEADER);
        assertThat(csv.get(2))
                .startsWith(String.format(
                        Locale.ROOT,
                        "fast,PASSED,1,1,%.3f,,,%.3f,%.3f,%.3f,",
                        fast.value(Metric.SLO_ATTAINMENT),
                        fast.goodput(),
                        fast.value(Metric.REQUEST_THROUGHPUT),
                        fast.summary(TTFT).percentile(50) / 1e6));
        // The index lists the test once, by its variants page (which links to each variant's own page), with the
        // verdict the test got: the slow variant's FAILED page is not a failed test.
        assertThat(Files.readString(reports.resolve("index.html")))
                .contains("<a href=\"AnyWillDo/gate/variants.html\">")
                .doesNotContain("slow/report.html", "fast/report.html");
    }

    @GoodputTest
    static class NoneWillDo {
        static Stream<ServerVariant> variants() {
            return Stream.of(
                    slow(),
                    ServerVariant.simulated(
                            "slower", PerformanceModel.fixed(Duration.ofMillis(400), Duration.ofMillis(10))));
        }

        @org.junit.jupiter.api.Test
        @ServerVariants(value = "variants", require = ServerVariants.Require.ANY)
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 4, requests = 8)
        @Slo(metric = TTFT, percentile = 50, atMost = 150)
        void gate() {}
    }

    @Test
    void should_fail_under_require_any_when_no_variant_met_the_gate() {
        String message =
                GoodputExtensionTest.failureMessages(tests(NoneWillDo.class)).get("gate");

        assertThat(message)
                .startsWith(
                        "NoneWillDo.gate(): none of 2 server variants met the gate (@ServerVariants(require = ANY))\n"
                                + "### NoneWillDo.gate: 0 of 2 variants passed; no variant met every objective\n")
                .contains("NoneWillDo.gate() [variant slow]: 1 of 1 objectives not met")
                .contains("NoneWillDo.gate() [variant slower]: 1 of 1 objectives not met");
    }

    @GoodputTest
    static class BadDeclarations {
        static Stream<ServerVariant> duplicates() {
            return Stream.of(fast(), ServerVariant.simulated("fast", PerformanceModel.preset("tiny-test")));
        }

        static Stream<ServerVariant> oneDirectory() {
            return Stream.of(
                    ServerVariant.simulated("max seqs 8", PerformanceModel.preset("fixed")),
                    ServerVariant.simulated("max-seqs-8", PerformanceModel.preset("fixed")));
        }

        static List<ServerVariant> empty() {
            return List.of();
        }

        static String notVariants() {
            return "fast";
        }

        @org.junit.jupiter.api.Test
        @ServerVariants("missing")
        @LoadProfile(concurrency = 1, requests = 2)
        void missingMethod() {}

        @org.junit.jupiter.api.Test
        @ServerVariants("duplicates")
        @LoadProfile(concurrency = 1, requests = 2)
        void duplicateNames() {}

        @org.junit.jupiter.api.Test
        @ServerVariants("oneDirectory")
        @LoadProfile(concurrency = 1, requests = 2)
        void sameDirectory() {}

        @org.junit.jupiter.api.Test
        @ServerVariants("empty")
        @LoadProfile(concurrency = 1, requests = 2)
        void emptyList() {}

        @org.junit.jupiter.api.Test
        @ServerVariants("notVariants")
        @LoadProfile(concurrency = 1, requests = 2)
        void wrongType() {}

        @org.junit.jupiter.api.Test
        @ServerVariants("empty")
        void noLoad() {}

        @org.junit.jupiter.api.Test
        @ServerVariants("duplicates")
        @LoadProfile(concurrency = 1, requests = 2)
        void takesRunResult(RunResult result) {}
    }

    @Test
    void should_refuse_bad_declarations_before_any_load_naming_the_method_and_the_value() {
        Map<String, String> failures = GoodputExtensionTest.failureMessages(tests(BadDeclarations.class));

        assertThat(failures)
                .containsEntry(
                        "missingMethod",
                        "@ServerVariants(\"missing\") on BadDeclarations.missingMethod(): BadDeclarations has no method"
                                + " missing() without parameters; name a method that returns a Stream, a Collection or"
                                + " an array of ServerVariant")
                .containsEntry(
                        "duplicateNames",
                        "@ServerVariants(\"duplicates\") on BadDeclarations.duplicateNames(): duplicates() returned two"
                                + " variants named 'fast'; every variant needs a name of its own")
                .containsEntry(
                        "sameDirectory",
                        "@ServerVariants(\"oneDirectory\") on BadDeclarations.sameDirectory(): oneDirectory()"
                                + " returned variants 'max seqs 8' and 'max-seqs-8', which share the report directory"
                                + " max-seqs-8; every variant needs a name of its own")
                .containsEntry(
                        "emptyList",
                        "@ServerVariants(\"empty\") on BadDeclarations.emptyList(): empty() returned no variant; return"
                                + " at least one ServerVariant")
                .containsEntry(
                        "wrongType",
                        "@ServerVariants(\"notVariants\") on BadDeclarations.wrongType(): notVariants() returned a"
                                + " java.lang.String; return a Stream, a Collection or an array of ServerVariant")
                .containsEntry(
                        "noLoad",
                        "@ServerVariants on BadDeclarations.noLoad() has no load to run against each variant: add"
                                + " @LoadProfile or @LoadSweep")
                .containsEntry(
                        "takesRunResult",
                        "BadDeclarations.takesRunResult() takes a RunResult but runs against several"
                                + " @ServerVariants; take a VariantResults instead");
        assertThat(reports.resolve("BadDeclarations")).doesNotExist();
    }

    @Test
    void should_refuse_a_blank_variant_name() {
        assertThatThrownBy(() -> ServerVariant.of(" ", dev.goodput.core.ServerEndpoint.of("http://127.0.0.1:1", "m")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a server variant's name must not be blank (was \" \")");
    }

    @GoodputTest
    static class SweptVariants {
        static VariantResults captured;

        static ServerVariant[] variants() {
            return new ServerVariant[] {slow(), fast()};
        }

        @org.junit.jupiter.api.Test
        @ServerVariants(value = "variants", require = ServerVariants.Require.ANY)
        @Workload(inputTokens = 8, outputTokens = 2)
        @Slo(metric = TTFT, percentile = 90, atMost = 150)
        @LoadSweep(
                rates = {2, 4},
                runSeconds = 1,
                drainSeconds = 1)
        @MaxGoodputRate(atLeast = 2)
        void sweep(VariantResults results) {
            captured = results;
        }
    }

    @Test
    void should_compare_sweeps_by_their_max_goodput_rate_with_each_variants_curve() throws Exception {
        Events events = tests(SweptVariants.class);

        assertThat(GoodputExtensionTest.failureMessages(events)).isEmpty();
        VariantResults results = SweptVariants.captured;
        assertThat(results.sweep("slow").maxGoodputRate()).isZero();
        assertThat(results.sweep("fast").maxGoodputRate()).isEqualTo(4.0);
        assertThat(results.passed("slow")).isFalse();
        assertThat(results.best()).contains("fast");
        // The figures shown for a sweep are those of its run at the max goodput rate.
        assertThat(results.get("fast").load().offeredRate()).isEqualTo(4.0);
        Path directory = reports.resolve("SweptVariants").resolve("sweep");
        assertThat(directory.resolve("fast").resolve("sweep.html")).isRegularFile();
        String[] fastRow = Files.readAllLines(directory.resolve(VariantComparison.CSV_FILE))
                .get(2)
                .split(",");
        assertThat(fastRow[0]).isEqualTo("fast");
        assertThat(fastRow[1]).isEqualTo("PASSED");
        assertThat(Double.parseDouble(fastRow[4])).isGreaterThanOrEqualTo(0.9); // the attainment target
        assertThat(fastRow[5]).isEqualTo("4.000"); // max goodput rate
        assertThat(fastRow[6]).isEqualTo("4.000"); // the rate of the figures shown
        assertThat(Files.readString(directory.resolve(VariantComparison.MARKDOWN_FILE)))
                .startsWith("### SweptVariants.sweep: 1 of 2 variants passed; best: fast (max goodput rate 4.00"
                        + " req/s)\n");
        assertThat(Files.readString(directory.resolve(VariantComparison.HTML_FILE)))
                .contains("id=\"variants-goodput\"")
                .contains("<a href=\"fast/sweep.html\">fast</a>");
    }

    /** A startable server that records when it is started and stopped, and what ran meanwhile. */
    static final class RecordingServer implements dev.goodput.core.StartableServer {
        static final List<String> EVENTS = new java.util.concurrent.CopyOnWriteArrayList<>();
        private dev.goodput.mock.MockServer server;

        @Override
        public void start() {
            EVENTS.add("start");
            server = dev.goodput.mock.MockServer.start(dev.goodput.mock.MockServerConfig.defaults()
                    .withPerformanceModel(PerformanceModel.preset("fixed")));
        }

        @Override
        public void stop() {
            EVENTS.add("stop");
            server.close();
            server = null;
        }

        @Override
        public boolean isRunning() {
            return server != null;
        }

        @Override
        public dev.goodput.core.ServerEndpoint serverEndpoint() {
            return dev.goodput.core.ServerEndpoint.of(server.baseUrl(), server.modelName());
        }
    }

    @GoodputTest
    static class StartableAndEndpointVariants {
        /** Started and closed by the test that runs this class. */
        static dev.goodput.mock.MockServer alreadyRunning;

        static List<ServerVariant> variants() {
            return List.of(
                    ServerVariant.of("container", new RecordingServer()),
                    ServerVariant.of(
                            "endpoint",
                            dev.goodput.core.ServerEndpoint.of(alreadyRunning.baseUrl(), alreadyRunning.modelName())));
        }

        @org.junit.jupiter.api.Test
        @ServerVariants("variants")
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 2, requests = 6)
        void gate(VariantResults results) {
            RecordingServer.EVENTS.add("body " + results.names());
        }
    }

    @Test
    void should_start_a_startable_variant_just_for_its_run_and_use_an_endpoint_as_it_is() {
        RecordingServer.EVENTS.clear();
        StartableAndEndpointVariants.alreadyRunning = dev.goodput.mock.MockServer.start(
                dev.goodput.mock.MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("fixed")));
        try {
            Events events = tests(StartableAndEndpointVariants.class);

            assertThat(GoodputExtensionTest.failureMessages(events)).isEmpty();
            // Stopped before the next variant ran and before the body: variants never share a machine.
            assertThat(RecordingServer.EVENTS).containsExactly("start", "stop", "body [container, endpoint]");
            assertThat(reports.resolve("StartableAndEndpointVariants/gate/container/result.json"))
                    .isRegularFile();
            assertThat(reports.resolve("StartableAndEndpointVariants/gate/endpoint/result.json"))
                    .isRegularFile();
        } finally {
            StartableAndEndpointVariants.alreadyRunning.close();
        }
    }
}
