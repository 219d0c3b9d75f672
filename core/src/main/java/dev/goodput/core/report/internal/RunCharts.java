package dev.goodput.core.report.internal;

import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.SteadyState;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.stats.Summary;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The charts of one run: the latency distributions as CDFs (exact for per-request metrics, from the computed
 * percentiles for pooled ITL), and throughput, requests in flight and TTFT over the run's time, with the steady-state
 * window shaded.
 */
public final class RunCharts {

    private RunCharts() {}

    /** Returns the CDF charts of TTFT, TPOT, ITL and E2EL, each with its objectives' bounds. */
    public static List<String> distributions(RunResult result) {
        List<RequestRecord> measured = result.records().stream()
                .filter(r -> r.phase() == Phase.MEASURED && r.isSuccess())
                .toList();
        List<String> charts = new ArrayList<>();
        charts.add(cdf(result, Metric.TTFT, exact(measured, r -> r.ttftNanos() / 1e6)));
        charts.add(cdf(result, Metric.TPOT, exact(measured, r -> r.tpotNanos() / 1e6)));
        charts.add(cdf(result, Metric.ITL, fromPercentiles(result.summary(Metric.ITL))));
        charts.add(cdf(result, Metric.E2EL, exact(measured, r -> r.e2elNanos() / 1e6)));
        return charts;
    }

    private static String cdf(RunResult result, Metric metric, double[][] points) {
        SvgChart chart = new SvgChart(
                        "cdf-" + metric.name().toLowerCase(java.util.Locale.ROOT),
                        metric.displayName() + " distribution (CDF)",
                        metric.displayName() + " (ms)",
                        "share of requests")
                .line(metric == Metric.ITL ? "ITL (from percentiles)" : metric.displayName(), points[0], points[1]);
        for (SloSpec slo : result.spec().objectives()) {
            if (slo.metric() == metric && slo.statistic() == SloSpec.Statistic.PERCENTILE) {
                chart.vertical(slo.toString(), slo.threshold() / 1e6)
                        .horizontal(
                                "p" + dev.goodput.core.internal.Units.formatPercentile(slo.percentile()),
                                slo.percentile() / 100);
            } else if (slo.metric() == metric && slo.isRequestCriterion()) {
                chart.vertical(slo.toString(), slo.threshold() / 1e6);
            }
        }
        return chart.render();
    }

    private static double[][] exact(List<RequestRecord> records, ToDoubleFunction<RequestRecord> value) {
        double[] values = records.stream()
                .mapToDouble(value)
                .filter(Double::isFinite)
                .sorted()
                .toArray();
        double[] shares = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            shares[i] = (i + 1.0) / values.length;
        }
        return new double[][] {values, shares};
    }

    private static double[][] fromPercentiles(Summary summary) {
        if (summary.isEmpty()) {
            return new double[][] {new double[0], new double[0]};
        }
        TreeMap<Double, Double> points = new TreeMap<>();
        points.put(0.0, summary.min() / 1e6);
        for (Map.Entry<Double, Double> entry : summary.percentiles().entrySet()) {
            points.put(entry.getKey() / 100, entry.getValue() / 1e6);
        }
        points.put(1.0, summary.max() / 1e6);
        double[] x = points.values().stream().mapToDouble(Double::doubleValue).toArray();
        double[] y = points.keySet().stream().mapToDouble(Double::doubleValue).toArray();
        return new double[][] {x, y};
    }

    /** Returns throughput, requests in flight and TTFT against the time since the run's first intended start. */
    public static List<String> overTime(RunResult result) {
        List<RequestRecord> records = result.records();
        if (records.isEmpty()) {
            return List.of();
        }
        long start =
                records.stream().mapToLong(RequestRecord::intendedNanos).min().orElse(0);
        long end = records.stream().mapToLong(RequestRecord::endNanos).max().orElse(start);
        int bins = (int) Math.max(1, Math.ceil((end - start) / 1e9));
        double[] second = new double[bins];
        double[] completed = new double[bins];
        for (int i = 0; i < bins; i++) {
            second[i] = i + 0.5;
        }
        for (RequestRecord record : records) {
            if (record.isSuccess()) {
                completed[(int) Math.min(bins - 1, (record.endNanos() - start) / 1_000_000_000L)]++;
            }
        }
        List<String> charts = new ArrayList<>();
        SteadyState steady = result.load().steadyState();
        charts.add(shade(
                        new SvgChart("over-time-throughput", "Throughput over time", "time (s)", "requests/s")
                                .lineWithDots("completed per second", second, completed),
                        steady,
                        start)
                .render());
        charts.add(shade(inFlight(records, start), steady, start).render());
        List<RequestRecord> withTtft = records.stream()
                .filter(r -> r.firstTokenNanos() != RequestRecord.ABSENT)
                .toList();
        double[] sent = withTtft.stream()
                .mapToDouble(r -> (r.intendedNanos() - start) / 1e9)
                .toArray();
        double[] ttft = withTtft.stream().mapToDouble(r -> r.ttftNanos() / 1e6).toArray();
        SvgChart ttftChart = new SvgChart("over-time-ttft", "TTFT over time", "intended start (s)", "TTFT (ms)")
                .dots("TTFT per request", sent, ttft);
        for (SloSpec slo : result.spec().objectives()) {
            if (slo.metric() == Metric.TTFT && slo.isRequestCriterion()) {
                ttftChart.horizontal(slo.toString(), slo.threshold() / 1e6);
            }
        }
        charts.add(shade(ttftChart, steady, start).render());
        return charts;
    }

    /** Shades the steady-state window, when there is one, on a chart whose time axis starts at {@code start}. */
    private static SvgChart shade(SvgChart chart, SteadyState steady, long start) {
        return steady.found()
                ? chart.band("steady state", (steady.startNanos() - start) / 1e9, (steady.endNanos() - start) / 1e9)
                : chart;
    }

    private static SvgChart inFlight(List<RequestRecord> records, long start) {
        long[] events = new long[records.size() * 2];
        int n = 0;
        for (RequestRecord record : records) {
            events[n++] = ((record.intendedNanos() - start) << 1) | 1;
            events[n++] = (record.endNanos() - start) << 1;
        }
        Arrays.sort(events, 0, n);
        double[] x = new double[n];
        double[] y = new double[n];
        int level = 0;
        for (int i = 0; i < n; i++) {
            level += (events[i] & 1) == 1 ? 1 : -1;
            x[i] = (events[i] >> 1) / 1e9;
            y[i] = level;
        }
        return new SvgChart("over-time-in-flight", "Requests in flight over time", "time (s)", "requests")
                .steps("in flight or queued", x, y);
    }
}
