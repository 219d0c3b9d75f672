package dev.goodput.junit;

import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.report.GateReport;
import dev.goodput.core.report.Reports;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.sweep.SweepResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.MediaType;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.JUnitException;

/**
 * Writes a run's reports under {@code goodput.report.dir/<TestClass>/<method>/}, attaches them to the test
 * through JUnit's file publishing, prints the console summary into the test output, and publishes the key
 * figures as a report entry.
 */
final class GateReports {

    private GateReports() {}

    static void write(GateContext gate, RunResult result, int run) {
        GateHistory.append(gate, result, run);
        write(gate, result, gate.reportDirectory(run), gate.title(run), keyFigures(result, run));
    }

    /** Writes one run of an annotated gate (a trial or an attempt) into the given directory. */
    static void writeAttempt(GateContext gate, RunResult result, Path directory, String title) {
        write(gate, result, directory, title, keyFigures(result, 0));
    }

    private static void write(
            GateContext gate, RunResult result, Path target, String title, Map<String, String> figures) {
        ExtensionContext context = gate.context();
        Path directory = Reports.writeAll(result, target, title);
        GateHistory.writeIndex(gate, directory);
        System.out.print(ConsoleReport.format(result));
        System.out.println("reports: " + directory);
        publish(context, directory, Reports.JSON_FILE, MediaType.APPLICATION_JSON);
        publish(context, directory, Reports.CSV_FILE, MediaType.parse("text/csv"));
        publish(context, directory, Reports.HTML_FILE, MediaType.parse("text/html"));
        context.publishReportEntry(figures);
    }

    /**
     * Writes the gate page of a gate with several runs or a baseline comparison, with the verdict the gate will
     * get, and the index.
     */
    static void writeGate(GateContext gate, GateTrials.Outcome outcome) {
        boolean passed = outcome.failure().isEmpty();
        String verdict = outcome.summary().verdicts().isEmpty() && outcome.comparison() == null
                ? "NO-OBJECTIVES"
                : passed ? "PASSED" : "FAILED";
        Path page = new GateReport(
                        gate.title(0),
                        verdict,
                        outcome.summary(),
                        outcome.attempts(),
                        outcome.comparison(),
                        outcome.baselineNote())
                .write(gate.reportDirectory(0));
        GateHistory.writeIndex(gate, gate.reportDirectory(0));
        System.out.println("gate report: " + page);
        publish(gate.context(), page.getParent(), GateReport.HTML_FILE, MediaType.parse("text/html"));
        publish(gate.context(), page.getParent(), GateReport.MARKDOWN_FILE, MediaType.parse("text/markdown"));
    }

    /** Writes a sweep's reports, its page's verdict, the index, and prints where they are. */
    static void writeSweep(GateContext gate, SweepResult result, boolean passed) {
        ExtensionContext context = gate.context();
        Path directory =
                Reports.writeSweep(result, gate.reportDirectory(0), gate.title(0), passed ? "PASSED" : "FAILED");
        GateHistory.writeIndex(gate, directory);
        System.out.println(result.maxGoodput().describe());
        System.out.println("reports: " + directory.resolve(Reports.SWEEP_HTML_FILE));
        publish(context, directory, Reports.SWEEP_HTML_FILE, MediaType.parse("text/html"));
        publish(context, directory, Reports.SWEEP_CSV_FILE, MediaType.parse("text/csv"));
        context.publishReportEntry(Map.of(
                "goodput.max_goodput_rps", format(result.maxGoodputRate()),
                "goodput.sweep_runs", Integer.toString(result.points().size())));
    }

    /** Removes a gate page left from an earlier run of a gate that is now a plain single run. */
    static void removeGatePage(GateContext gate) {
        Path directory = gate.reportDirectory(0);
        try {
            for (String file : List.of(GateReport.HTML_FILE, GateReport.MARKDOWN_FILE, GateReport.JSON_FILE)) {
                Files.deleteIfExists(directory.resolve(file));
            }
        } catch (IOException e) {
            System.out.println("WARNING: cannot remove an old gate page in " + directory + ": " + e.getMessage());
        }
        GateHistory.writeIndex(gate, directory);
    }

    private static void publish(ExtensionContext context, Path directory, String file, MediaType type) {
        try {
            context.publishFile(file, type, target -> Files.copy(directory.resolve(file), target));
        } catch (JUnitException | UnsupportedOperationException e) {
            // No output directory configured for this launcher: the reports under the report dir remain.
        }
    }

    static Map<String, String> keyFigures(RunResult result, int run) {
        String prefix = run == 0 ? "goodput." : "goodput.run" + run + ".";
        Map<String, String> figures = new LinkedHashMap<>();
        figures.put(prefix + "requests", Long.toString(result.accounting().scheduled()));
        figures.put(prefix + "goodput_rps", format(result.goodput()));
        figures.put(prefix + "request_throughput_rps", format(result.value(Metric.REQUEST_THROUGHPUT)));
        figures.put(prefix + "ttft_p99_ms", format(result.summary(Metric.TTFT).percentile(99) / 1e6));
        figures.put(prefix + "tpot_p99_ms", format(result.summary(Metric.TPOT).percentile(99) / 1e6));
        figures.put(prefix + "error_rate", format(result.value(Metric.ERROR_RATE)));
        figures.put(
                prefix + "objectives_met",
                result.verdicts().stream().filter(v -> v.isMet()).count() + "/"
                        + result.verdicts().size());
        return figures;
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.3f", value);
    }
}
