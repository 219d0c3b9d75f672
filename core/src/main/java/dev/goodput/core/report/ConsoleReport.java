package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Units;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.report.internal.ClassTable;
import dev.goodput.core.report.internal.ServerMetricsSection;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.internal.MetricUnits;
import dev.goodput.core.stats.Summary;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Formats a short plain-text summary of a run for test output: load, achieved rate, counts by outcome, why
 * requests failed (the {@value #REASONS} most frequent reasons), the latency table, throughput, goodput, the
 * run's notes ({@link RunResult#notes()}) and every verdict.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ConsoleReport {

    private static final List<Metric> LATENCIES =
            List.of(Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.E2EL, Metric.QUEUE_TIME, Metric.MAX_STALL);

    /** The most reasons of failed requests the summary lists. */
    public static final int REASONS = 5;

    private ConsoleReport() {}

    /** Returns the summary, lines separated by {@code \n}, ending in a newline. */
    public static String format(RunResult result) {
        StringBuilder out = new StringBuilder();
        var accounting = result.accounting();
        line(
                out,
                "Goodput run: %s against %s (model %s)",
                result.spec().load(),
                result.spec().server().shownUrl(),
                result.spec().server().model());
        line(
                out,
                "requests: %d scheduled, %d succeeded, %d failed, %d timed out, %d cancelled (%d measured)",
                accounting.scheduled(),
                accounting.count(Outcome.SUCCESS),
                accounting.count(Outcome.FAILED),
                accounting.count(Outcome.TIMED_OUT),
                accounting.count(Outcome.CANCELLED),
                accounting.measured());
        if (result.spec().load().requestPolicy().retries() > 0) {
            line(
                    out,
                    "retries: %d requests retried, %d failed attempts retried (up to %d retries per request)",
                    result.records().stream().filter(r -> r.attempts() > 1).count(),
                    result.records().stream()
                            .mapToLong(r -> r.retriedAttempts().size())
                            .sum(),
                    result.spec().load().requestPolicy().retries());
        }
        long connectionRetries = result.connectionRetries();
        if (connectionRetries > 0) {
            line(
                    out,
                    "connection retries: %d (requests sent again because their pooled connection was closed before"
                            + " any response; the server never saw those sends)",
                    connectionRetries);
        }
        for (String failure : result.failures().describe(REASONS, "  ")) {
            out.append(failure).append('\n');
        }
        if (result.spec().load().arrivals() instanceof Arrivals.ClosedLoop closed) {
            // A closed loop offers no rate: its users send as fast as the server answers. Its dispatch rate is not
            // its load either; in one wave it is the rate of the opening burst (3209.57 req/s against a throughput
            // of 38.69, issue 33). What holds is how many users there were and what they got through.
            line(
                    out,
                    "load: closed loop of %d users, throughput %s req/s, window %.2f s, peak in flight %d",
                    closed.users(),
                    fixed(result.value(Metric.REQUEST_THROUGHPUT)),
                    result.load().windowSeconds(),
                    result.load().peakInFlight());
        } else {
            line(
                    out,
                    "load: offered %s req/s, achieved %s req/s, window %.2f s, peak in flight %d",
                    Double.isNaN(result.load().offeredRate())
                            ? "n/a"
                            : fixed(result.load().offeredRate()),
                    fixed(result.load().achievedRate()),
                    result.load().windowSeconds(),
                    result.load().peakInFlight());
        }
        out.append(dev.goodput.core.report.internal.SteadyStateText.line(result))
                .append('\n');
        List<Double> percentiles = result.spec().percentiles();
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-12s %8s %10s", "ms", "n", "mean"));
        for (double percentile : percentiles) {
            header.append(String.format(Locale.ROOT, " %10s", "p" + Units.formatPercentile(percentile)));
        }
        header.append(String.format(Locale.ROOT, " %10s", "max"));
        out.append(header).append('\n');
        for (Metric metric : LATENCIES) {
            Summary summary = result.summary(metric);
            StringBuilder row = new StringBuilder(String.format(
                    Locale.ROOT, "%-12s %8d %10s", metric.displayName(), summary.count(), ms(summary.mean())));
            for (double percentile : percentiles) {
                row.append(String.format(Locale.ROOT, " %10s", ms(summary.percentile(percentile))));
            }
            row.append(String.format(Locale.ROOT, " %10s", ms(summary.max())));
            out.append(row).append('\n');
        }
        List<String> classes = ClassTable.consoleLines(result);
        if (!classes.isEmpty()) {
            line(out, "workload classes (each from its own requests):");
            classes.forEach(row -> line(out, "%s", row));
        }
        line(
                out,
                "throughput: %s req/s, %s output tok/s, %s total tok/s",
                fixed(result.value(Metric.REQUEST_THROUGHPUT)),
                fixed(result.value(Metric.OUTPUT_TOKEN_THROUGHPUT)),
                fixed(result.value(Metric.TOTAL_TOKEN_THROUGHPUT)));
        line(
                out,
                "goodput: %s req/s (%d good requests, SLO attainment %s, error rate %s)",
                fixed(result.goodput()),
                result.goodRequests(),
                MetricUnits.format(Metric.SLO_ATTAINMENT, result.value(Metric.SLO_ATTAINMENT)),
                MetricUnits.format(Metric.ERROR_RATE, result.value(Metric.ERROR_RATE)));
        String phases = StreamPhasesReport.of(result).consoleLine();
        if (phases != null) {
            line(out, "%s", phases);
        }
        EngineTimings engine = EngineTimings.of(result);
        if (engine != null) {
            line(out, "%s", engine.describe());
        }
        for (String server : ServerMetricsSection.consoleLines(result)) {
            line(out, "%s", server);
        }
        if (!result.clientHealth().trustworthy()) {
            line(out, "WARNING: %s", result.clientHealth().reason());
        }
        for (String note : result.notes()) {
            line(out, "note: %s", note);
        }
        for (SloVerdict verdict : result.verdicts()) {
            line(out, "  %s", verdict.describe());
        }
        if (result.runLength().untilDecided()) {
            line(out, "run length: %s", result.runLength().stopReason());
        }
        return out.toString();
    }

    private static String ms(double nanos) {
        return Double.isNaN(nanos) ? "-" : String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    private static String fixed(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static void line(StringBuilder out, String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }
}
