package dev.goodput.core.report.internal;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.stats.Summary;
import dev.goodput.core.sweep.MaxGoodput;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The charts of a sweep: per latency metric, latency against achieved throughput with one line per percentile
 * and the objectives' bounds; SLO attainment against offered rate with the target and the max-goodput point;
 * achieved against offered throughput.
 */
public final class SweepCharts {

    private SweepCharts() {}

    public static List<String> all(SweepResult result) {
        List<SweepPoint> curve = result.curve();
        List<String> charts = new ArrayList<>();
        for (Metric metric : latencyMetrics(result)) {
            charts.add(latencyCurve(result, curve, metric));
        }
        charts.add(attainment(result, curve));
        charts.add(throughput(result, curve));
        if (curve.stream().anyMatch(p -> p.result().serverMetrics().scrapes() > 0)) {
            charts.add(serverPressure(curve));
        }
        return charts;
    }

    /**
     * The server's view of the knee: peak KV-cache use and waiting requests and the preemptions of each run,
     * against its offered rate (the knee is where these start to climb).
     */
    private static String serverPressure(List<SweepPoint> curve) {
        double[] offered = curve.stream().mapToDouble(SweepPoint::offeredRate).toArray();
        return new SvgChart(
                        "sweep-server-pressure",
                        "Server: KV cache, queue and preemptions against offered rate",
                        "offered rate (req/s)",
                        "% / requests")
                .lineWithDots(
                        "peak KV cache use (%)",
                        offered,
                        curve.stream()
                                .mapToDouble(p ->
                                        p.result().serverMetrics().figures().peakKvCacheUsage() * 100)
                                .toArray())
                .lineWithDots(
                        "peak waiting requests",
                        offered,
                        curve.stream()
                                .mapToDouble(p ->
                                        p.result().serverMetrics().figures().peakWaiting())
                                .toArray())
                .lineWithDots(
                        "preemptions",
                        offered,
                        curve.stream()
                                .mapToDouble(p ->
                                        p.result().serverMetrics().figures().preemptions())
                                .toArray())
                .render();
    }

    private static Set<Metric> latencyMetrics(SweepResult result) {
        Set<Metric> metrics = new LinkedHashSet<>();
        metrics.add(Metric.TTFT);
        for (SloSpec slo : result.spec().base().objectives()) {
            if (slo.metric().isLatency() && slo.metric().kind() != Metric.Kind.RUN) {
                metrics.add(slo.metric());
            }
        }
        metrics.add(Metric.TPOT);
        metrics.add(Metric.E2EL);
        return metrics;
    }

    private static String latencyCurve(SweepResult result, List<SweepPoint> curve, Metric metric) {
        SvgChart chart = new SvgChart(
                "sweep-latency-" + metric.name().toLowerCase(Locale.ROOT),
                metric.displayName() + " against throughput",
                "achieved request throughput (req/s)",
                metric.displayName() + " (ms)");
        double[] x = curve.stream().mapToDouble(SweepPoint::throughput).toArray();
        for (double percentile : List.of(50.0, 90.0, 99.0)) {
            double[] y = curve.stream()
                    .mapToDouble(point -> value(point.result().summary(metric), percentile) / 1e6)
                    .toArray();
            chart.lineWithDots("p" + (int) percentile, x, y);
        }
        for (SloSpec slo : result.spec().base().objectives()) {
            if (slo.metric() == metric) {
                chart.horizontal(slo.toString(), slo.threshold() / 1e6);
            }
        }
        result.kneePoint()
                .ifPresent(knee -> chart.mark(
                        String.format(Locale.ROOT, "knee (%.2f req/s offered)", knee.offeredRate()),
                        knee.throughput(),
                        value(knee.result().summary(metric), 50.0) / 1e6));
        return chart.render();
    }

    private static double value(Summary summary, double percentile) {
        return summary.percentiles().getOrDefault(percentile, Double.NaN);
    }

    private static String attainment(SweepResult result, List<SweepPoint> curve) {
        MaxGoodput max = result.maxGoodput();
        SvgChart chart = new SvgChart(
                        "sweep-attainment",
                        "SLO attainment against offered rate",
                        "offered rate (req/s)",
                        "SLO attainment (%)")
                .lineWithDots(
                        "attainment",
                        curve.stream().mapToDouble(SweepPoint::offeredRate).toArray(),
                        curve.stream().mapToDouble(p -> p.attainment() * 100).toArray())
                .horizontal(String.format(Locale.ROOT, "target %.0f %%", max.target() * 100), max.target() * 100);
        curve.stream()
                .filter(p -> p.offeredRate() == max.rate())
                .findFirst()
                .ifPresent(p -> chart.mark(
                        String.format(Locale.ROOT, "max goodput %.2f req/s", max.rate()),
                        p.offeredRate(),
                        p.attainment() * 100));
        return chart.render();
    }

    private static String throughput(SweepResult result, List<SweepPoint> curve) {
        double[] offered = curve.stream().mapToDouble(SweepPoint::offeredRate).toArray();
        return new SvgChart(
                        "sweep-throughput",
                        "Throughput and goodput against offered rate",
                        "offered rate (req/s)",
                        "req/s")
                .lineWithDots("offered", offered, offered)
                .lineWithDots(
                        "achieved",
                        offered,
                        curve.stream().mapToDouble(SweepPoint::throughput).toArray())
                .lineWithDots(
                        "goodput",
                        offered,
                        curve.stream().mapToDouble(p -> p.result().goodput()).toArray())
                .render();
    }
}
