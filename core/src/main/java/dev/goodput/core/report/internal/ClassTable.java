package dev.goodput.core.report.internal;

import dev.goodput.core.internal.Units;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.internal.MetricUnits;
import dev.goodput.core.stats.Summary;
import dev.goodput.core.workload.WorkloadMix;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The per-class figures of a run with workload classes, one row per class in the mix's order, as the console and
 * the HTML report show them: share, measured requests, the median and the p99 (or the run's highest percentile) of TTFT, TPOT
 * and E2EL, goodput and SLO attainment. One p99 over a mix of short and long requests describes neither; these
 * rows describe each.
 */
public final class ClassTable {

    private static final List<Metric> LATENCIES = List.of(Metric.TTFT, Metric.TPOT, Metric.E2EL);

    private ClassTable() {}

    /** Returns the column headings. */
    public static List<String> headings(RunResult result) {
        String high = "p" + Units.formatPercentile(highPercentile(result));
        List<String> headings = new ArrayList<>(List.of("class", "share", "measured"));
        for (Metric metric : LATENCIES) {
            headings.add(metric.displayName() + " p50 ms");
            headings.add(metric.displayName() + " " + high + " ms");
        }
        headings.add("goodput req/s");
        headings.add("SLO attainment");
        return headings;
    }

    /** Returns one row of cells per class; empty when the run has no classes. */
    public static List<List<String>> rows(RunResult result) {
        List<List<String>> rows = new ArrayList<>();
        double high = highPercentile(result);
        for (Map.Entry<String, RunResult> entry : result.classes().entrySet()) {
            RunResult part = entry.getValue();
            List<String> row = new ArrayList<>();
            row.add(entry.getKey());
            row.add(share(result, entry.getKey()));
            row.add(Long.toString(part.accounting().measured()));
            for (Metric metric : LATENCIES) {
                Summary summary = part.summary(metric);
                row.add(ms(summary.count() == 0 ? Double.NaN : summary.percentile(50)));
                row.add(ms(summary.count() == 0 ? Double.NaN : summary.percentile(high)));
            }
            row.add(fixed(part.goodput()));
            row.add(MetricUnits.format(Metric.SLO_ATTAINMENT, part.value(Metric.SLO_ATTAINMENT)));
            rows.add(row);
        }
        return rows;
    }

    /** Returns the table as aligned text lines, headings first; empty when the run has no classes. */
    public static List<String> consoleLines(RunResult result) {
        List<List<String>> rows = rows(result);
        if (rows.isEmpty()) {
            return List.of();
        }
        List<List<String>> all = new ArrayList<>();
        all.add(headings(result));
        all.addAll(rows);
        int[] widths = new int[all.get(0).size()];
        for (List<String> row : all) {
            for (int k = 0; k < row.size(); k++) {
                widths[k] = Math.max(widths[k], row.get(k).length());
            }
        }
        List<String> lines = new ArrayList<>();
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder("  ");
            for (int k = 0; k < row.size(); k++) {
                String format = k == 0 ? "%-" + widths[k] + "s" : "  %" + widths[k] + "s";
                line.append(String.format(Locale.ROOT, format, row.get(k)));
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }

    /**
     * Returns the HTML section of a run with classes: the table, then each class's TTFT and E2EL as CDFs on one
     * chart each, and TTFT over the run's time by class (where head-of-line blocking shows: a long prompt's
     * prefill delays the short requests that arrive behind it); empty without classes.
     */
    public static String html(RunResult result) {
        List<List<String>> rows = rows(result);
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("<h2 id=\"classes\">Workload classes</h2>");
        out.append(Html.table(headings(result), rows)).append("<div class=\"charts\">");
        out.append(cdfByClass(result, Metric.TTFT, RequestRecord::ttftNanos));
        out.append(cdfByClass(result, Metric.E2EL, RequestRecord::e2elNanos));
        SvgChart overTime = new SvgChart("ttft-by-class", "TTFT over time by class", "intended start (s)", "TTFT (ms)");
        long origin = result.records().stream()
                .mapToLong(RequestRecord::intendedNanos)
                .min()
                .orElse(0);
        for (Map.Entry<String, RunResult> entry : result.classes().entrySet()) {
            List<RequestRecord> measured = measuredSuccesses(entry.getValue());
            double[] x = measured.stream()
                    .mapToDouble(r -> (r.intendedNanos() - origin) / 1e9)
                    .toArray();
            double[] y = measured.stream().mapToDouble(r -> r.ttftNanos() / 1e6).toArray();
            overTime.dots(entry.getKey(), x, y);
        }
        return out.append(overTime.render()).append("</div>").toString();
    }

    private static String cdfByClass(RunResult result, Metric metric, ToLongFunction<RequestRecord> value) {
        String id = "classes-cdf-" + metric.name().toLowerCase(Locale.ROOT);
        SvgChart chart = new SvgChart(
                id, metric.displayName() + " by class (CDF)", metric.displayName() + " (ms)", "share of requests");
        for (Map.Entry<String, RunResult> entry : result.classes().entrySet()) {
            double[] values = measuredSuccesses(entry.getValue()).stream()
                    .mapToDouble(r -> value.applyAsLong(r) / 1e6)
                    .sorted()
                    .toArray();
            double[] shares = new double[values.length];
            for (int i = 0; i < values.length; i++) {
                shares[i] = (i + 1.0) / values.length;
            }
            chart.line(entry.getKey(), values, shares);
        }
        for (dev.goodput.core.slo.SloSpec slo : result.spec().objectives()) {
            if (slo.metric() == metric && slo.trafficClass() != null) {
                chart.vertical(slo.toString(), slo.threshold() / 1e6);
            }
        }
        return chart.render();
    }

    private static List<RequestRecord> measuredSuccesses(RunResult part) {
        return part.records().stream()
                .filter(r -> r.phase() == Phase.MEASURED && r.isSuccess())
                .toList();
    }

    /** p99 when the run reports it (a class rarely has the samples for a p99.9), else its highest percentile. */
    private static double highPercentile(RunResult result) {
        List<Double> percentiles = result.spec().percentiles();
        if (percentiles.contains(99.0)) {
            return 99;
        }
        return percentiles.stream().mapToDouble(Double::doubleValue).max().orElse(50);
    }

    private static String share(RunResult result, String name) {
        if (result.spec().workload() instanceof WorkloadMix mix) {
            return String.format(
                    Locale.ROOT,
                    "%.1f %%",
                    100 * mix.share(mix.trafficClass(name).orElseThrow()));
        }
        return "-";
    }

    private static String ms(double nanos) {
        return Double.isNaN(nanos) ? "-" : String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    private static String fixed(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }
}
