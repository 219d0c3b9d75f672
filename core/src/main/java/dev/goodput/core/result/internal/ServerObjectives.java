package dev.goodput.core.result.internal;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ServerMetricsResult;
import dev.goodput.core.servermetrics.ServerMetricsResult.Figures;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.slo.internal.SloEvaluator;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Judges the objectives on server-side metrics ({@link Metric#isServerSide()}) once the server view is known,
 * exactly as run-level objectives are judged: a single value against the bound. A value the server did not
 * report makes the verdict inconclusive with the reason, which fails the gate like any inconclusive verdict.
 */
public final class ServerObjectives {

    private ServerObjectives() {}

    /** Returns the run with its server view, the server-side values and every objective judged. */
    public static RunResult apply(RunResult run, ServerMetricsResult view, Deployment deployment) {
        Map<Metric, Double> values = values(view.figures());
        List<SloVerdict> verdicts = new ArrayList<>();
        for (SloVerdict verdict : run.verdicts()) {
            Metric metric = verdict.objective().metric();
            if (!metric.isServerSide()) {
                verdicts.add(verdict);
                continue;
            }
            double value = values.getOrDefault(metric, Double.NaN);
            long measured = run.accounting().measured();
            if (Double.isNaN(value)) {
                verdicts.add(new SloVerdict(
                        verdict.objective(),
                        Verdict.INCONCLUSIVE,
                        Double.NaN,
                        null,
                        measured,
                        Double.NaN,
                        whyMissing(metric, view, deployment)));
            } else {
                verdicts.add(SloEvaluator.evaluateValue(verdict.objective(), value, Math.max(1, measured)));
            }
        }
        values.values().removeIf(value -> Double.isNaN(value));
        return run.withServerMetrics(view, values, verdicts);
    }

    static Map<Metric, Double> values(Figures figures) {
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        values.put(Metric.PREEMPTIONS, figures.preemptions());
        values.put(Metric.PEAK_KV_CACHE_USAGE, figures.peakKvCacheUsage());
        values.put(Metric.PEAK_WAITING_REQUESTS, figures.peakWaiting());
        values.put(Metric.PREFIX_CACHE_HIT_RATE, figures.prefixCacheHitRate());
        values.put(Metric.ENERGY_PER_OUTPUT_TOKEN, figures.energyPerOutputToken());
        values.put(Metric.COST_PER_MILLION_GOOD_TOKENS, figures.costPerMillionGoodTokens());
        return values;
    }

    private static String whyMissing(Metric metric, ServerMetricsResult view, Deployment deployment) {
        if (metric == Metric.COST_PER_MILLION_GOOD_TOKENS) {
            return Double.isNaN(deployment.pricePerGpuHour())
                    ? "no price per GPU-hour stated (Deployment.pricePerGpuHour, @GpuDeployment(pricePerGpuHour))"
                    : "no measurement window";
        }
        if (view.isEmpty()) {
            return "the server's metrics were not scraped (scraping is off)";
        }
        if (view.scrapes() == 0) {
            return "no scrape succeeded (" + String.join("; ", view.facts()) + ")";
        }
        return switch (metric) {
            case ENERGY_PER_OUTPUT_TOKEN ->
                "no GPU power or energy series in " + view.endpoints()
                        + " (scrape a DCGM exporter: ScrapeSettings.extraEndpoints)";
            case PREFIX_CACHE_HIT_RATE ->
                "the server exported no prefix-cache counters or hit rate in " + view.endpoints();
            default -> "the server exported no " + metric.displayName() + " series in " + view.endpoints();
        };
    }
}
