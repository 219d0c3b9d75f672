package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Units;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.report.internal.ClassTable;
import dev.goodput.core.report.internal.Html;
import dev.goodput.core.report.internal.RunCharts;
import dev.goodput.core.report.internal.ServerMetricsSection;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.internal.MetricUnits;
import dev.goodput.core.stats.Summary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Writes one run as a self-contained HTML page: the verdict, the objectives with their intervals, why requests
 * failed (by reason, with example requests), configuration and environment, the metric table, the latency CDFs and
 * the run over time. Charts are inline SVG; the page loads nothing from anywhere. Every text from the server (a
 * failure reason) is escaped.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HtmlReport {

    private static final List<Metric> TABLE =
            List.of(Metric.TTFT, Metric.TPOT, Metric.ITL, Metric.ICL, Metric.E2EL, Metric.QUEUE_TIME, Metric.MAX_STALL);

    private HtmlReport() {}

    /** Writes the page to a file, creating its directory. */
    public static void write(RunResult result, String title, Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, format(result, title), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** Returns the verdict a page shows: PASSED, FAILED, or NO-OBJECTIVES for a run without any. */
    public static String verdict(RunResult result) {
        return result.verdicts().isEmpty() ? "NO-OBJECTIVES" : result.allMet() ? "PASSED" : "FAILED";
    }

    /** Returns the page. */
    public static String format(RunResult result, String title) {
        StringBuilder body = new StringBuilder()
                .append("<h1>")
                .append(Html.escape(title))
                .append(" ")
                .append(Html.verdict(verdict(result)))
                .append("</h1>");
        body.append("<h2>Objectives</h2>").append(objectives(result));
        if (result.runLength().untilDecided()) {
            body.append("<p class=\"note\">Run length: ")
                    .append(Html.escape(result.runLength().stopReason()))
                    .append(". Looks: ")
                    .append(Html.escape(String.join(
                            "; ",
                            result.runLength().looks().stream()
                                    .map(dev.goodput.core.load.RunLength.Look::describe)
                                    .toList())))
                    .append(".</p>");
        }
        body.append("<h2 id=\"failures\">Failures</h2>").append(FailureSection.format(result));
        body.append("<h2>Configuration and environment</h2>").append(configuration(result));
        body.append("<h2>Metrics</h2>").append(metrics(result));
        body.append(ClassTable.html(result));
        body.append("<h2>Latency distributions</h2><div class=\"charts\">");
        RunCharts.distributions(result).forEach(body::append);
        body.append("</div><h2>Over time</h2><div class=\"charts\">");
        RunCharts.overTime(result).forEach(body::append);
        ServerMetricsSection.charts(result).forEach(body::append);
        body.append("</div>");
        body.append(ServerMetricsSection.html(result));
        return Html.page(title, verdict(result), keyFigures(result), body.toString());
    }

    /**
     * Returns the key figures the page's head carries for the index page ({@link ReportIndex}): requests, goodput,
     * p99 TTFT, error rate and the most frequent failure reason, formatted.
     */
    static Map<String, String> keyFigures(RunResult result) {
        Map<String, String> figures = new LinkedHashMap<>();
        figures.put(ReportIndex.REQUESTS_META, Long.toString(result.accounting().scheduled()));
        figures.put(ReportIndex.GOODPUT_META, MetricUnits.format(Metric.GOODPUT, result.goodput()));
        Double p99 = result.summary(Metric.TTFT).percentiles().get(99.0);
        figures.put(ReportIndex.TTFT_P99_META, p99 == null ? "" : MetricUnits.format(Metric.TTFT, p99));
        figures.put(
                ReportIndex.ERROR_RATE_META, MetricUnits.format(Metric.ERROR_RATE, result.value(Metric.ERROR_RATE)));
        figures.put(
                ReportIndex.TOP_FAILURE_META,
                result.failures().reasons().isEmpty()
                        ? ""
                        : result.failures().reasons().get(0).describe(ReportIndex.TOP_FAILURE_CHARS));
        String why = unmet(result.verdicts());
        if (!result.clientHealth().trustworthy()) {
            why = (why.isEmpty() ? "" : why + "; ") + "client: "
                    + result.clientHealth().reason();
        }
        figures.put(ReportIndex.WHY_META, why);
        return figures;
    }

    /**
     * Returns the objectives not met, in short, for a verdict's reason: {@code "p90 TTFT VIOLATED; p99 TPOT
     * INCONCLUSIVE (too few samples ...)"}; empty when every objective was met.
     */
    static String unmet(List<SloVerdict> verdicts) {
        return String.join(
                "; ",
                verdicts.stream()
                        .filter(v -> !v.isMet())
                        .map(v -> v.objective().statisticName() + " " + v.verdict()
                                + (v.reason() == null ? "" : " (" + v.reason() + ")"))
                        .toList());
    }

    static String objectives(RunResult result) {
        return objectives(result.verdicts());
    }

    static String objectives(List<SloVerdict> verdicts) {
        if (verdicts.isEmpty()) {
            return "<p class=\"note\">No objectives: this run only measures.</p>";
        }
        List<List<Object>> rows = new ArrayList<>();
        for (SloVerdict verdict : verdicts) {
            Metric metric = verdict.objective().metric();
            String interval = verdict.interval() == null
                    ? ""
                    : String.format(
                            Locale.ROOT,
                            "%s .. %s (%.0f%%)",
                            MetricUnits.format(metric, verdict.interval().lower()),
                            MetricUnits.format(metric, verdict.interval().upper()),
                            verdict.interval().confidence() * 100);
            rows.add(List.of(
                    verdict.objective().statisticName(),
                    MetricUnits.format(metric, verdict.measured()),
                    interval,
                    verdict.objective().comparison().symbol() + " "
                            + MetricUnits.format(metric, verdict.objective().threshold()),
                    verdict.isCorrelated()
                            ? verdict.sampleCount() + " (effectively " + Math.round(verdict.effectiveCount()) + ")"
                            : Long.toString(verdict.sampleCount()),
                    Html.markup(Html.verdict(verdict.verdict().name())),
                    verdict.reason() == null ? "" : verdict.reason()));
        }
        return Html.table(
                List.of("objective", "measured", "confidence interval", "bound", "n", "verdict", "note"), rows);
    }

    private static String configuration(RunResult result) {
        List<String> items = new ArrayList<>();
        items.add("server");
        items.add(result.spec().server().toString());
        items.add("workload");
        items.add(result.spec().workload().describe().toString());
        for (Map.Entry<String, Object> entry : result.spec().load().describe().entrySet()) {
            items.add("load." + entry.getKey());
            items.add(String.valueOf(entry.getValue()));
        }
        var accounting = result.accounting();
        items.add("requests");
        items.add(String.format(
                Locale.ROOT,
                "%d scheduled, %d succeeded, %d failed, %d timed out, %d cancelled (%d measured)",
                accounting.scheduled(),
                accounting.count(Outcome.SUCCESS),
                accounting.count(Outcome.FAILED),
                accounting.count(Outcome.TIMED_OUT),
                accounting.count(Outcome.CANCELLED),
                accounting.measured()));
        items.add("client");
        items.add(
                result.clientHealth().trustworthy()
                        ? "kept up with its schedule"
                        : result.clientHealth().reason());
        RunEnvironment env = result.environment();
        items.addAll(List.of(
                "started at",
                env.startedAt().toString(),
                "Goodput",
                env.goodputVersion(),
                "Java",
                env.javaVersion() + " (" + env.javaVendor() + ")",
                "OS",
                env.osName() + " " + env.osArch() + ", " + env.availableProcessors() + " processors"));
        return Html.definitions(items);
    }

    private static String metrics(RunResult result) {
        List<Double> percentiles = result.spec().percentiles();
        List<String> header = new ArrayList<>(List.of("metric", "n", "mean"));
        percentiles.forEach(p -> header.add("p" + Units.formatPercentile(p)));
        header.add("max");
        List<List<String>> rows = new ArrayList<>();
        List<Metric> shown = new ArrayList<>(TABLE);
        // Without reasoning, TTFO and answer TPOT repeat TTFT and TPOT, and there are no reasoning tokens.
        if (result.records().stream().anyMatch(record -> record.streamPhases().hasReasoning())) {
            shown.addAll(List.of(Metric.TTFO, Metric.ANSWER_TPOT, Metric.REASONING_TOKENS));
        }
        for (Metric metric : shown) {
            Summary summary = result.summary(metric);
            List<String> row = new ArrayList<>(List.of(
                    metric.displayName(), Long.toString(summary.count()), MetricUnits.format(metric, summary.mean())));
            for (double p : percentiles) {
                row.add(summary.percentiles().containsKey(p) ? MetricUnits.format(metric, summary.percentile(p)) : "");
            }
            row.add(MetricUnits.format(metric, summary.max()));
            rows.add(row);
        }
        StringBuilder out = new StringBuilder(Html.table(header, rows));
        List<List<String>> values = new ArrayList<>();
        for (Map.Entry<Metric, Double> entry : result.values().entrySet()) {
            values.add(List.of(entry.getKey().displayName(), MetricUnits.format(entry.getKey(), entry.getValue())));
        }
        return out.append(Html.table(List.of("run-level metric", "value"), values))
                .toString();
    }
}
