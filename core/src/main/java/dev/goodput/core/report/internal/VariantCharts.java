package dev.goodput.core.report.internal;

import dev.goodput.core.internal.Units;
import dev.goodput.core.report.VariantOutcome;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The charts of a variant comparison, one series per variant so that its colour and legend entry name it. Single
 * runs: each variant's p99 latency against its goodput, the trade-off a tuning decision weighs (lower right is
 * better), with the objectives' bounds. Sweeps: each variant's goodput curve against offered rate with its max
 * goodput rate marked, and its p99 TTFT curve.
 */
public final class VariantCharts {

    private VariantCharts() {}

    public static List<String> all(List<VariantOutcome> variants) {
        boolean sweeps = variants.stream().allMatch(variant -> variant.sweep().isPresent());
        List<String> charts = new ArrayList<>();
        if (sweeps) {
            charts.add(goodputCurves(variants));
            charts.add(latencyCurves(variants, Metric.TTFT));
        } else {
            charts.add(tradeOff(variants, Metric.TTFT));
            charts.add(tradeOff(variants, Metric.TPOT));
        }
        return charts;
    }

    private static String tradeOff(List<VariantOutcome> variants, Metric metric) {
        double percentile = chartedPercentile(variants, metric);
        String statistic = "p" + Units.formatPercentile(percentile) + " " + metric.displayName();
        SvgChart chart = new SvgChart(
                "variants-" + metric.name().toLowerCase(Locale.ROOT),
                statistic + " against goodput, per variant",
                "goodput (req/s)",
                statistic + " (ms)");
        for (VariantOutcome variant : variants) {
            RunResult result = variant.result();
            chart.dots(variant.name(), new double[] {result.goodput()}, new double[] {
                result.summary(metric).percentiles().getOrDefault(percentile, Double.NaN) / 1e6
            });
        }
        bounds(chart, variants, metric);
        return chart.render();
    }

    private static String goodputCurves(List<VariantOutcome> variants) {
        SvgChart chart = new SvgChart(
                "variants-goodput",
                "Goodput against offered rate, per variant",
                "offered rate (req/s)",
                "goodput (req/s)");
        for (VariantOutcome variant : variants) {
            SweepResult sweep = variant.sweep().orElseThrow();
            List<SweepPoint> curve = sweep.curve();
            chart.lineWithDots(
                    variant.name(),
                    curve.stream().mapToDouble(SweepPoint::offeredRate).toArray(),
                    curve.stream()
                            .mapToDouble(point -> point.result().goodput())
                            .toArray());
            if (sweep.maxGoodputRate() > 0) {
                chart.mark(
                        String.format(Locale.ROOT, "%s max %.2f", variant.name(), sweep.maxGoodputRate()),
                        sweep.maxGoodputRate(),
                        variant.result().goodput());
            }
        }
        return chart.render();
    }

    private static String latencyCurves(List<VariantOutcome> variants, Metric metric) {
        SvgChart chart = new SvgChart(
                "variants-curve-" + metric.name().toLowerCase(Locale.ROOT),
                "p99 " + metric.displayName() + " against offered rate, per variant",
                "offered rate (req/s)",
                "p99 " + metric.displayName() + " (ms)");
        for (VariantOutcome variant : variants) {
            List<SweepPoint> curve = variant.sweep().orElseThrow().curve();
            chart.lineWithDots(
                    variant.name(),
                    curve.stream().mapToDouble(SweepPoint::offeredRate).toArray(),
                    curve.stream()
                            .mapToDouble(point -> p99(point.result(), metric))
                            .toArray());
        }
        bounds(chart, variants, metric);
        return chart.render();
    }

    /** Draws the bounds of the first variant's objectives on the metric: every variant runs the same gate. */
    private static void bounds(SvgChart chart, List<VariantOutcome> variants, Metric metric) {
        for (SloSpec objective : variants.get(0).result().spec().objectives()) {
            if (objective.metric() == metric) {
                chart.horizontal(objective.toString(), objective.threshold() / 1e6);
            }
        }
    }

    /**
     * Returns the percentile the gate's objective on the metric bounds, so that the chart's points and the bound
     * drawn across it are the same statistic; 99 when no objective bounds a percentile of it.
     */
    private static double chartedPercentile(List<VariantOutcome> variants, Metric metric) {
        return variants.get(0).result().spec().objectives().stream()
                .filter(objective -> objective.metric() == metric && !Double.isNaN(objective.percentile()))
                .mapToDouble(SloSpec::percentile)
                .findFirst()
                .orElse(99);
    }

    private static double p99(RunResult result, Metric metric) {
        return result.summary(metric).percentiles().getOrDefault(99.0, Double.NaN) / 1e6;
    }
}
