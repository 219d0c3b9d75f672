package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.report.internal.Html;
import dev.goodput.core.report.internal.SweepCharts;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.slo.internal.MetricUnits;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
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
import java.util.function.IntFunction;
import org.apiguardian.api.API;

/**
 * Writes a sweep as a self-contained HTML page: the max goodput rate and the knee, the curve per latency metric
 * with the objectives' bounds, the attainment curve with the max-goodput point, and one row per run linking to
 * that run's own page.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SweepHtmlReport {

    private SweepHtmlReport() {}

    /**
     * Returns the page.
     *
     * @param verdict the page's verdict for the index (for example PASSED or FAILED)
     * @param runLink the relative link to run {@code n}'s page (1-based), or {@code null} for none
     */
    public static String format(SweepResult result, String title, String verdict, IntFunction<String> runLink) {
        StringBuilder body = new StringBuilder()
                .append("<h1>")
                .append(Html.escape(title))
                .append(" ")
                .append(Html.verdict(verdict))
                .append("</h1>");
        body.append("<p id=\"max-goodput\"><b>")
                .append(Html.escape(result.maxGoodput().describe()))
                .append("</b><br>")
                .append(Html.escape(result.kneePoint()
                        .map(knee -> String.format(
                                Locale.ROOT,
                                "knee at %.2f req/s offered (%.2f req/s achieved): past it, latency rises much"
                                        + " faster than throughput (Kneedle on the median TTFT of all %d runs at"
                                        + " a set rate, search runs included)",
                                knee.offeredRate(),
                                knee.throughput(),
                                result.curve().size()))
                        .orElse("no knee: latency did not at least double across the curve")))
                .append("</p>");
        if (!result.spec().base().objectives().isEmpty()) {
            body.append("<p class=\"note\">objectives: ")
                    .append(Html.escape(result.spec().base().objectives().toString()))
                    .append("; workload: ")
                    .append(Html.escape(
                            result.spec().base().workload().describe().toString()))
                    .append("</p>");
        }
        for (String note : result.notes()) {
            body.append("<p class=\"note\">").append(Html.escape(note)).append("</p>");
        }
        // The bandwidth floor holds at batch 1, so the sweep's lowest rate is the run to read it on.
        result.curve().stream()
                .min(java.util.Comparator.comparingDouble(dev.goodput.core.sweep.SweepPoint::offeredRate))
                .flatMap(lowest -> lowest.result()
                        .serverMetrics()
                        .bandwidth()
                        .map(check -> String.format(
                                java.util.Locale.ROOT,
                                "bandwidth check at the lowest rate (%.2f req/s): %s",
                                lowest.offeredRate(),
                                check.reading())))
                .ifPresent(line -> body.append("<p id=\"bandwidth-check\" class=\"note\">")
                        .append(Html.escape(line))
                        .append("</p>"));
        body.append("<h2>The curve</h2><div class=\"charts\">");
        SweepCharts.all(result).forEach(body::append);
        body.append("</div><h2>Runs</h2>").append(runs(result, runLink));
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put(
                ReportIndex.REQUESTS_META,
                Long.toString(result.points().stream()
                        .mapToLong(point -> point.result().accounting().scheduled())
                        .sum()));
        meta.put(
                ReportIndex.GOODPUT_META,
                Double.isNaN(result.maxGoodputRate())
                        ? ""
                        : String.format(Locale.ROOT, "max %.2f req/s", result.maxGoodputRate()));
        meta.put(
                ReportIndex.WHY_META,
                verdict.equals("FAILED") ? result.maxGoodput().describe() : "");
        return Html.page(title, verdict, meta, body.toString());
    }

    /** Writes the page to a file, creating its directory. */
    public static void write(SweepResult result, String title, String verdict, IntFunction<String> runLink, Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, format(result, title, verdict, runLink), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * Returns a run's objectives cell: PASSED, or the worst verdict among its objectives (VIOLATED before
     * INCONCLUSIVE) with each objective that was not met and why, so a failed run says what failed it.
     */
    static String objectives(RunResult result) {
        List<SloVerdict> unmet =
                result.verdicts().stream().filter(v -> !v.isMet()).toList();
        if (unmet.isEmpty()) {
            return Html.verdict(HtmlReport.verdict(result));
        }
        Verdict worst =
                unmet.stream().anyMatch(v -> v.verdict() == Verdict.VIOLATED) ? Verdict.VIOLATED : Verdict.INCONCLUSIVE;
        StringBuilder cell = new StringBuilder(Html.verdict(worst.name())).append("<div class=\"reason\">");
        unmet.forEach(v -> cell.append(Html.escape(v.describe())).append('\n'));
        return cell.append("</div>").toString();
    }

    private static String runs(SweepResult result, IntFunction<String> runLink) {
        List<List<Object>> rows = new ArrayList<>();
        int n = 0;
        for (SweepPoint point : result.points()) {
            n++;
            var r = point.result();
            String link = runLink == null ? null : runLink.apply(n);
            rows.add(List.of(
                    link == null
                            ? Integer.toString(n)
                            : Html.markup("<a href=\"" + Html.escape(link) + "\">" + n + "</a>"),
                    point.role().name().toLowerCase(Locale.ROOT).replace('_', ' '),
                    point.isRated() ? String.format(Locale.ROOT, "%.2f", point.offeredRate()) : "closed loop",
                    String.format(Locale.ROOT, "%.2f", point.throughput()),
                    String.format(Locale.ROOT, "%.2f", r.goodput()),
                    MetricUnits.format(Metric.SLO_ATTAINMENT, point.attainment()),
                    MetricUnits.format(
                            Metric.TTFT, r.summary(Metric.TTFT).percentiles().getOrDefault(90.0, Double.NaN)),
                    MetricUnits.format(
                            Metric.TPOT, r.summary(Metric.TPOT).percentiles().getOrDefault(90.0, Double.NaN)),
                    MetricUnits.format(Metric.ERROR_RATE, point.errorRate()),
                    Html.markup(objectives(r)),
                    point.stoppedEarly() ? point.stopReason() : ""));
        }
        return Html.table(
                List.of(
                        "run",
                        "role",
                        "offered req/s",
                        "achieved req/s",
                        "goodput req/s",
                        "SLO attainment",
                        "p90 TTFT",
                        "p90 TPOT",
                        "error rate",
                        "objectives",
                        "ended early"),
                rows);
    }
}
