package dev.goodput.junit.internal;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The session summary: a launcher that ran gates leaves {@code summary.md} in the report directory, with one row
 * per gate of this session, and appends it to {@code GITHUB_STEP_SUMMARY}; a session without gates writes nothing.
 */
class SessionSummaryListenerTest {

    @TempDir
    Path reports;

    @TempDir
    Path github;

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class PassingGate {
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 4, requests = 8)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        void gate() {}
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class FailingGate {
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadProfile(concurrency = 4, requests = 8)
        @Slo(metric = TTFT, percentile = 50, atMost = 10) // the fixed model's TTFT is 50 ms
        void gate() {}
    }

    static class NoGate {
        @org.junit.jupiter.api.Test
        void plain() {}
    }

    /** Runs {@code classes} through a launcher with only {@code listener} registered, reports in the temp dir. */
    private void launch(SessionSummaryListener listener, Class<?>... classes) {
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false)
                .addTestExecutionListeners(listener)
                .build());
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
                .configurationParameters(Map.of(
                        "goodput.report.dir", reports.toString(),
                        "goodput.progress", "off",
                        "goodput.client.untrustworthy", "warn"));
        for (Class<?> type : classes) {
            request.selectors(selectClass(type));
        }
        LauncherDiscoveryRequest discovery = request.build();
        launcher.execute(discovery);
    }

    /** Writes a page as a gate of an earlier session left it, dated an hour ago. */
    private void earlierPage() throws IOException {
        Path page = Files.createDirectories(reports.resolve("Earlier").resolve("gate"))
                .resolve("report.html");
        Files.writeString(
                page,
                "<!DOCTYPE html><html><head><title>Earlier.gate()</title>"
                        + "<meta name=\"goodput-verdict\" content=\"PASSED\"></head><body></body></html>");
        Files.setLastModifiedTime(page, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
    }

    @Test
    void should_not_count_a_run_without_objectives_as_failed() throws IOException {
        Instant since = Instant.now().minus(Duration.ofMinutes(1));
        Path page = Files.createDirectories(reports.resolve("Comparison").resolve("run1"))
                .resolve("report.html");
        Files.writeString(
                page,
                "<!DOCTYPE html><html><head><title>Comparison.run1()</title>"
                        + "<meta name=\"goodput-verdict\" content=\"NO-OBJECTIVES\"></head><body></body></html>");

        String markdown = SessionSummary.markdown(reports, since).orElseThrow();

        assertThat(markdown)
                .contains("1 gate(s) in this session, 0 failed;")
                .contains("| NO-OBJECTIVES |")
                .doesNotContain("**NO-OBJECTIVES**");
    }

    @Test
    void should_summarize_the_gates_of_this_session_with_their_verdicts_and_links() throws IOException {
        earlierPage();
        Path stepSummary = Files.writeString(github.resolve("step-summary.md"), "an earlier step\n");
        var listener = new SessionSummaryListener(
                Map.of("GITHUB_STEP_SUMMARY", stepSummary.toString())::get, Clock.systemUTC());

        launch(listener, PassingGate.class, FailingGate.class);

        String summary = Files.readString(reports.resolve("summary.md"));
        assertThat(summary.lines().filter(line -> line.startsWith("| ") && !line.startsWith("| test ")))
                .satisfiesExactly(
                        failing -> assertThat(failing)
                                .startsWith("| FailingGate.gate | **FAILED** | 8 | ")
                                .endsWith(" | [run](FailingGate/gate/report.html) |"),
                        passing -> assertThat(passing)
                                .startsWith("| PassingGate.gate | PASSED | 8 | ")
                                .endsWith(" | [run](PassingGate/gate/report.html) |"));
        assertThat(summary)
                .startsWith("## Goodput gates\n\n2 gate(s) in this session, 1 failed; reports under `")
                .doesNotContain("Earlier");
        assertThat(stepSummary).content().isEqualTo("an earlier step\n" + summary);
    }

    @Test
    void should_count_a_test_against_server_variants_once_with_the_verdict_the_build_gives_it() throws Exception {
        // Two variants under @ServerVariants(require = ANY): the slow one fails its objective, the test passes. The
        // summary once counted each variant's page, so a green build read "1 failed" (issue 33).
        launch(
                new SessionSummaryListener(name -> null, Clock.systemUTC()),
                Class.forName("dev.goodput.junit.ServerVariantsTest$AnyWillDo"));

        String summary = Files.readString(reports.resolve("summary.md"));
        assertThat(summary)
                .contains("1 gate(s) in this session, 0 failed;")
                .contains("| AnyWillDo.gate - variants | PASSED | 40 | ")
                .contains(" | [variants](AnyWillDo/gate/variants.html) |")
                .doesNotContain("**FAILED**", "slow/report.html");
    }

    @Test
    void should_be_registered_with_every_launcher_through_its_service_file() {
        // The listener registered with a launcher that loads its listeners itself writes where this run says; a
        // step summary named by the environment would get a row too, so the test runs only where none is named.
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv("GITHUB_STEP_SUMMARY") == null);
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request()
                .configurationParameters(Map.of(
                        "goodput.report.dir", reports.toString(),
                        "goodput.progress", "off",
                        "goodput.client.untrustworthy", "warn"))
                .selectors(selectClass(PassingGate.class))
                .build());

        assertThat(reports.resolve("summary.md"))
                .content()
                .startsWith("## Goodput gates\n\n1 gate(s) in this session, 0 failed;")
                .contains("| PassingGate.gate | PASSED | 8 | ");
    }

    @Test
    void should_write_nothing_when_the_session_ran_no_gate() throws IOException {
        earlierPage();
        Path stepSummary = github.resolve("step-summary.md");
        var listener = new SessionSummaryListener(
                Map.of("GITHUB_STEP_SUMMARY", stepSummary.toString())::get, Clock.systemUTC());

        launch(listener, NoGate.class);

        assertThat(reports.resolve("summary.md")).doesNotExist();
        assertThat(stepSummary).doesNotExist();
    }

    @Test
    void should_keep_a_reason_inside_its_table_cell() {
        assertThat(SessionSummary.cell("HTTP 500: a | b\nc\r\nd")).isEqualTo("HTTP 500: a \\| b<br>c<br>d");
    }

    @Test
    void should_not_fail_when_the_step_summary_cannot_be_written() throws IOException {
        earlierPage();
        Path page = reports.resolve("Earlier").resolve("gate").resolve("report.html");
        Instant written = Files.getLastModifiedTime(page).toInstant();
        Path notAFile = Files.createDirectories(github.resolve("a-directory"));
        var listener =
                new SessionSummaryListener(Map.of("GITHUB_STEP_SUMMARY", notAFile.toString())::get, Clock.systemUTC());

        listener.write(reports, written);

        assertThat(reports.resolve("summary.md")).content().contains("| Earlier.gate() | PASSED |");
    }
}
