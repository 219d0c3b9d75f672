package dev.goodput.junit;

import dev.goodput.core.Metric;
import dev.goodput.core.RunResult;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.report.Reports;
import dev.goodput.core.sweep.SweepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
        ExtensionContext context = gate.context();
        Path directory = Reports.writeAll(result, gate.reportDirectory(run), gate.title(run));
        GateHistory.append(gate, result, run);
        GateHistory.writeIndex(gate);
        System.out.print(ConsoleReport.format(result));
        System.out.println("reports: " + directory);
        publish(context, directory, Reports.JSON_FILE, MediaType.APPLICATION_JSON);
        publish(context, directory, Reports.CSV_FILE, MediaType.parse("text/csv"));
        publish(context, directory, Reports.HTML_FILE, MediaType.parse("text/html"));
        context.publishReportEntry(keyFigures(result, run));
    }

    /** Writes a sweep's reports, its page's verdict, the index, and prints where they are. */
    static void writeSweep(GateContext gate, SweepResult result, boolean passed) {
        ExtensionContext context = gate.context();
        Path directory =
                Reports.writeSweep(result, gate.reportDirectory(0), gate.title(0), passed ? "PASSED" : "FAILED");
        GateHistory.writeIndex(gate);
        System.out.println(result.maxGoodput().describe());
        System.out.println("reports: " + directory.resolve(Reports.SWEEP_HTML_FILE));
        publish(context, directory, Reports.SWEEP_HTML_FILE, MediaType.parse("text/html"));
        publish(context, directory, Reports.SWEEP_CSV_FILE, MediaType.parse("text/csv"));
        context.publishReportEntry(Map.of(
                "goodput.max_goodput_rps", format(result.maxGoodputRate()),
                "goodput.sweep_runs", Integer.toString(result.points().size())));
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
