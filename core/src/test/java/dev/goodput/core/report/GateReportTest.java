package dev.goodput.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.Comparison;
import dev.goodput.core.compare.MetricChange;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.TrialSummary;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate page puts the worst news first and most visibly (issue 33): a gate that failed on a regression says so
 * once, in red, above everything; its trials never read PASSED beside it; the index says why it failed.
 */
class GateReportTest {

    /**
     * Every objective of the sample records met: the gate can only fail on its comparison with the baseline. Maxima,
     * compared directly: five requests decide no interval on a rate or a share.
     */
    private static final RunResult TRIAL = SampleResults.compute(List.of(
            SloSpec.of(Metric.TTFT).max().atMost(java.time.Duration.ofSeconds(1)),
            SloSpec.of(Metric.E2EL).max().atMost(java.time.Duration.ofSeconds(5))));

    private static final Comparison REGRESSED = new Comparison(
            ChangeVerdict.REGRESSED,
            List.of(),
            List.of(
                    new MetricChange(
                            "TPOT p50", true, 10.0, 11.5, 0.15, 0.11, 0.19, ChangeVerdict.REGRESSED, "bootstrap"),
                    new MetricChange(
                            "TTFT p99", true, 100, 104, 0.04, -0.08, 0.16, ChangeVerdict.INCONCLUSIVE, "bootstrap")),
            List.of(),
            0.10,
            0.95,
            2,
            2);

    private static GateReport gate(String verdict, Comparison comparison) {
        return new GateReport(
                "Chat.gate()",
                verdict,
                TrialSummary.of(List.of(TRIAL, TRIAL)),
                List.of(
                        new GateReport.Attempt(1, 1, "trial-1/report.html", TRIAL, true, null),
                        new GateReport.Attempt(2, 1, "trial-2/report.html", TRIAL, true, null)),
                comparison,
                "compared with src/test/goodput-baselines/Chat/gate/baseline.json");
    }

    @Test
    void should_name_each_trials_run_length_when_it_lasted_until_decided() throws Exception {
        String reason = "decided at look 1 of 5, after 200 measured requests: every objective's interval lies on one"
                + " side of its bound (each look at 98.7% so that all 5 together keep 95%)";
        RunResult decided = TRIAL.withRunLength(new dev.goodput.core.load.RunLength(
                true, List.of(new dev.goodput.core.load.RunLength.Look(1, 5, 200, 2, 0)), 0.987, true, -1, reason));
        GateReport report = new GateReport(
                "Chat.gate()",
                "PASSED",
                TrialSummary.of(List.of(decided, TRIAL)),
                List.of(
                        new GateReport.Attempt(1, 1, "trial-1/report.html", decided, true, null),
                        new GateReport.Attempt(2, 1, "trial-2/report.html", TRIAL, true, null)),
                null,
                "no baseline");

        assertThat(report.markdown())
                .contains("\nTrial 1 run length: " + reason + "\n")
                .doesNotContain("Trial 2 run");
        assertThat(Files.readString(report.write(Files.createTempDirectory("gate-report"))))
                .contains("<p class=\"note\">Trial 1 run length: decided at look 1 of 5, after 200 measured requests");
    }

    @Test
    void should_say_first_and_once_why_a_gate_failed_on_a_regression() throws Exception {
        assertThat(TRIAL.allMet()).as("the sample trial meets its objectives").isTrue();
        GateReport report = gate("FAILED", REGRESSED);

        assertThat(report.why()).containsExactly("REGRESSED vs baseline: TPOT p50 +15.0 %");
        String page = Files.readString(report.write(Files.createTempDirectory("gate-report")));
        String body = page.substring(page.indexOf("<body>"));
        assertThat(body)
                .doesNotContain("REGRESSED</span> REGRESSED", "INCONCLUSIVE</span> INCONCLUSIVE")
                .startsWith("<body><h1>Chat.gate() <span class=\"FAILED\">FAILED</span></h1>"
                        + "<p class=\"why\"><span class=\"FAILED\">FAILED</span>: <span class=\"REGRESSED\">"
                        + "REGRESSED</span> vs baseline: TPOT p50 +15.0 %</p><h2>")
                .contains("<p><span class=\"REGRESSED\">REGRESSED</span> vs baseline: TPOT p50 +15.0 %</p>")
                .contains("<td><span class=\"REGRESSED\">REGRESSED</span></td>")
                // Each trial met its own objectives; it says so without a PASSED beside the gate's FAILED.
                .contains("<th>its own objectives</th>")
                .contains("<td><span class=\"MET\">all 2 met</span></td>")
                .doesNotContain("PASSED");
        // A regression is drawn at least as boldly as an inconclusive change, in the colour of a failure.
        assertThat(page).contains(".VIOLATED,.FAILED,.REGRESSED{color:#c0151b;font-weight:700}");
        assertThat(page).contains("<meta name=\"goodput-why\" content=\"REGRESSED vs baseline: TPOT p50 +15.0 %\">");
        assertThat(report.markdown())
                .startsWith("# Chat.gate(): FAILED\n\n**FAILED**: REGRESSED vs baseline: TPOT p50 +15.0 %\n\n");
    }

    @Test
    void should_give_the_index_and_its_summary_why_a_gate_failed(@TempDir Path reports) {
        gate("FAILED", REGRESSED).write(reports.resolve("Chat").resolve("gate"));

        assertThat(ReportIndex.entries(reports)).singleElement().satisfies(entry -> {
            assertThat(entry.kind()).isEqualTo("gate");
            assertThat(entry.verdict()).isEqualTo("FAILED");
            assertThat(entry.why()).isEqualTo("REGRESSED vs baseline: TPOT p50 +15.0 %");
        });
        assertThat(ReportIndex.write(reports))
                .content()
                .contains("<td><div class=\"reason\">REGRESSED vs baseline: TPOT p50 +15.0 %</div></td>");
    }

    @Test
    void should_name_no_reason_for_a_gate_that_passed() {
        assertThat(gate("PASSED", null).why()).isEmpty();
    }

    @Test
    void should_list_a_test_run_against_server_variants_once_by_its_variants_page(@TempDir Path reports) {
        Path directory = reports.resolve("Variants").resolve("chat");
        RunResult failing =
                SampleResults.compute(List.of(SloSpec.of(Metric.ERROR_RATE).atMost(0.01)));
        Reports.writeAll(TRIAL, directory.resolve("fast"), "Variants.chat() - fast");
        Reports.writeAll(failing, directory.resolve("slow"), "Variants.chat() - slow");
        VariantComparison comparison = VariantComparison.of(
                "Variants.chat()",
                List.of(VariantOutcome.ofRun("fast", TRIAL, true), VariantOutcome.ofRun("slow", failing, false)));
        // @ServerVariants(require = ANY): one variant passing passes the test.
        comparison.writeAll(directory, "PASSED");

        assertThat(ReportIndex.entries(reports)).singleElement().satisfies(entry -> {
            assertThat(entry.link()).isEqualTo("Variants/chat/variants.html");
            assertThat(entry.kind()).isEqualTo("variants");
            assertThat(entry.verdict()).isEqualTo("PASSED");
            assertThat(entry.requests()).isEqualTo("14");
        });
        assertThat(ReportIndex.write(reports)).content().contains("<a href=\"Variants/chat/variants.html\">");

        comparison.writeAll(directory, "FAILED");
        assertThat(ReportIndex.entries(reports))
                .singleElement()
                .extracting(IndexedReport::why)
                .isEqualTo("variants that failed: slow");
    }
}
