package dev.goodput.core.report.internal;

import dev.goodput.core.history.ChangePoint;
import dev.goodput.core.history.ChangePoints;
import dev.goodput.core.history.HistoryEntry;
import dev.goodput.core.history.HistoryFileException;
import dev.goodput.core.history.RunHistory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The history section of the report index: for each listed test with at least two entries in the history file, a
 * small trend chart per key figure (x: the entries, oldest first; y: the figure), its change points drawn as
 * vertical lines labelled with their commit and change, and one table of every change point. A history file that
 * cannot be read becomes a note on the page, never a failed index: the history is an aid, not a gate.
 */
public final class HistoryCharts {

    /** Charts drawn at this width (their view box scales them), so that several fit a row. */
    private static final String STYLE = "<style>.trends svg.chart{width:430px;height:auto}</style>";

    private HistoryCharts() {}

    /**
     * Returns the section for the tests whose report links (relative to the report root, such as {@code
     * ChatGate/chat/report.html}) are given: a test's id is its link's directory. Empty when no listed test has two
     * entries.
     */
    public static String section(Path historyFile, List<String> links) {
        Map<String, List<HistoryEntry>> tests;
        try {
            tests = RunHistory.byTest(RunHistory.read(historyFile));
        } catch (HistoryFileException e) {
            return "<h2>History</h2><p class=\"note\">" + Html.escape(e.getMessage()) + "</p>";
        }
        ChangePoints detector = ChangePoints.defaults();
        StringBuilder charts = new StringBuilder();
        List<List<Object>> rows = new ArrayList<>();
        int shown = 0;
        for (String link : links) {
            int slash = link.lastIndexOf('/');
            String testId = slash < 0 ? "" : link.substring(0, slash);
            List<HistoryEntry> entries = tests.getOrDefault(testId, List.of());
            if (entries.size() < 2) {
                continue;
            }
            shown++;
            Map<String, List<ChangePoint>> found = detector.findAll(entries);
            charts.append("<h3><a href=\"")
                    .append(Html.escape(link))
                    .append("\">")
                    .append(Html.escape(testId))
                    .append("</a> <span class=\"note\">")
                    .append(entries.size())
                    .append(" entries")
                    .append(span(entries))
                    .append("</span></h3><div class=\"charts trends\">");
            for (String metric : found.keySet()) {
                if (entries.stream()
                                .filter(e -> Double.isFinite(e.figure(metric)))
                                .count()
                        >= 2) {
                    charts.append(chart(testId, metric, entries, found.get(metric)));
                }
                for (ChangePoint point : found.get(metric)) {
                    rows.add(List.of(
                            testId,
                            metric,
                            point.index() + 1,
                            point.shortCommit(),
                            Html.markup(
                                    point.isRegression()
                                            ? "<span class=\"FAILED\">regression</span>"
                                            : "<span class=\"PASSED\">improvement</span>"),
                            point.describe()));
                }
            }
            charts.append("</div>");
        }
        if (shown == 0) {
            return "";
        }
        String table = rows.isEmpty()
                ? "<p class=\"note\">no change point</p>"
                : Html.table(List.of("test", "figure", "entry", "commit", "direction", "change point"), rows);
        return STYLE + "<h2>History</h2><p class=\"note\">" + Html.escape(historyFile.toString())
                + ": key figures per run,"
                + " oldest first; change points (dashed lines) where a two-sample t-test over windows of up to "
                + detector.window() + " runs on each side gives p &lt;= " + detector.maxPValue()
                + " and the change is at least " + Math.round(detector.minChange() * 100) + " % (docs/history.md)</p>"
                + table + charts;
    }

    private static String chart(String testId, String metric, List<HistoryEntry> entries, List<ChangePoint> points) {
        double[] x = new double[entries.size()];
        double[] y = new double[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            x[i] = i + 1;
            y[i] = entries.get(i).figure(metric);
        }
        SvgChart chart = new SvgChart(
                        "trend-" + (testId + "-" + metric).replaceAll("[^A-Za-z0-9_-]", "-"),
                        metric,
                        "run (oldest first)" + span(entries),
                        unit(metric))
                .lineWithDots(metric, x, y);
        for (ChangePoint point : points) {
            String commit = point.commit().isEmpty() ? "#" + (point.index() + 1) : point.shortCommit();
            chart.vertical(commit + String.format(Locale.ROOT, " %+.0f %%", point.change() * 100), point.index() + 1);
        }
        return chart.render();
    }

    /** Returns {@code ": abc1234 .. def5678"}, the first and last commits, or empty when either is unknown. */
    private static String span(List<HistoryEntry> entries) {
        String first = entries.get(0).shortCommit();
        String last = entries.get(entries.size() - 1).shortCommit();
        return first.isEmpty() || last.isEmpty() ? "" : ": " + first + " .. " + last;
    }

    private static String unit(String metric) {
        if (metric.endsWith("_ms")) {
            return "ms";
        }
        if (metric.endsWith("_rps")) {
            return "requests/s";
        }
        if (metric.endsWith("_tps")) {
            return "tokens/s";
        }
        return metric.endsWith("_rate") ? "ratio" : metric;
    }
}
