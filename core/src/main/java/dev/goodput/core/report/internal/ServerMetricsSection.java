package dev.goodput.core.report.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ServerMetricsResult;
import dev.goodput.core.servermetrics.ServerMetricsResult.Bucketed;
import dev.goodput.core.servermetrics.ServerMetricsResult.Distribution;
import dev.goodput.core.servermetrics.ServerMetricsResult.Figures;
import dev.goodput.core.servermetrics.ServerMetricsResult.Series;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.internal.MetricUnits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server view in every report: the console's lines, the JSON {@code server_metrics} block, and the HTML
 * section with its time charts on the same time axis as the client's ({@code docs/server-metrics.md}).
 */
public final class ServerMetricsSection {

    private ServerMetricsSection() {}

    /** Returns the console lines: the facts, then the cost, each ready to print. */
    public static List<String> consoleLines(RunResult result) {
        ServerMetricsResult view = result.serverMetrics();
        List<String> lines = new ArrayList<>();
        for (String fact : view.facts()) {
            lines.add("server: " + fact);
        }
        cost(result).ifPresent(lines::add);
        return lines;
    }

    private static java.util.Optional<String> cost(RunResult result) {
        Figures figures = result.serverMetrics().figures();
        Deployment deployment = result.spec().deployment();
        if (!deployment.isStated()) {
            return java.util.Optional.empty();
        }
        String cost = Double.isNaN(figures.costPerMillionGoodTokens())
                ? ""
                : MetricUnits.format(Metric.COST_PER_MILLION_GOOD_TOKENS, figures.costPerMillionGoodTokens()) + " ("
                        + deployment.gpuCount() + " GPU at " + fixed(deployment.pricePerGpuHour()) + " per GPU-hour), ";
        return java.util.Optional.of(String.format(
                Locale.ROOT, "cost: %s%s output tok/s per GPU", cost, fixed(figures.outputTokensPerSecondPerGpu())));
    }

    /** Writes the {@code server_metrics} block, unless nothing was scraped and no deployment stated. */
    public static void writeJson(JsonGenerator json, RunResult result) throws IOException {
        ServerMetricsResult view = result.serverMetrics();
        Deployment deployment = result.spec().deployment();
        if (view.isEmpty() && !deployment.isStated()) {
            return;
        }
        json.writeObjectFieldStart("server_metrics");
        json.writeObjectField("endpoints", view.endpoints());
        json.writeNumberField("scrapes", view.scrapes());
        json.writeNumberField("failed_scrapes", view.failedScrapes());
        json.writeObjectField("failures", view.failures());
        json.writeObjectField("facts", view.facts());
        json.writeObjectFieldStart("deployment");
        json.writeStringField("gpu", deployment.gpu());
        json.writeNumberField("gpu_count", deployment.gpuCount());
        number(json, "price_per_gpu_hour", deployment.pricePerGpuHour());
        number(json, "memory_bandwidth_gbps", deployment.memoryBandwidthGBps());
        number(json, "model_parameters", deployment.modelParameters());
        number(json, "bytes_per_parameter", deployment.bytesPerParameter());
        json.writeEndObject();
        Figures figures = view.figures();
        json.writeObjectFieldStart("summary");
        number(json, "mean_running", figures.meanRunning());
        number(json, "peak_running", figures.peakRunning());
        number(json, "mean_waiting", figures.meanWaiting());
        number(json, "peak_waiting", figures.peakWaiting());
        number(json, "mean_kv_cache_usage", figures.meanKvCacheUsage());
        number(json, "peak_kv_cache_usage", figures.peakKvCacheUsage());
        number(json, "preemptions", figures.preemptions());
        number(json, "prefix_cache_hit_rate", figures.prefixCacheHitRate());
        number(json, "generated_tokens", figures.generatedTokens());
        number(json, "mean_gpu_utilization", figures.meanGpuUtilization());
        number(json, "mean_power_w", figures.meanPowerWatts());
        number(json, "energy_j", figures.energyJoules());
        number(json, "energy_per_output_token_j", figures.energyPerOutputToken());
        number(json, "output_tokens_per_s_per_gpu", figures.outputTokensPerSecondPerGpu());
        number(json, "cost_per_million_good_tokens", figures.costPerMillionGoodTokens());
        json.writeEndObject();
        json.writeArrayFieldStart("distributions");
        for (Distribution distribution : view.distributions()) {
            json.writeStartObject();
            json.writeStringField("name", distribution.key());
            json.writeNumberField("count", distribution.count());
            number(json, "mean_ms", distribution.meanNanos() / 1e6);
            bucketed(json, "p50", distribution.p50());
            bucketed(json, "p90", distribution.p90());
            bucketed(json, "p99", distribution.p99());
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeObjectFieldStart("series");
        for (Series series : view.series()) {
            json.writeObjectFieldStart(series.key());
            json.writeStringField("unit", series.unit());
            json.writeFieldName("t_s");
            json.writeArray(series.seconds(), 0, series.seconds().length);
            json.writeFieldName("values");
            json.writeStartArray();
            for (double value : series.values()) {
                json.writeNumber(value);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeEndObject();
        json.writeArrayFieldStart("unmapped");
        for (ServerMetricsResult.RawSeries raw : view.unmapped()) {
            json.writeStartObject();
            json.writeStringField("name", raw.name());
            json.writeObjectField("labels", raw.labels());
            number(json, "first", raw.first());
            number(json, "last", raw.last());
            number(json, "min", raw.min());
            number(json, "max", raw.max());
            json.writeEndObject();
        }
        json.writeEndArray();
        if (view.bandwidth().isPresent()) {
            var check = view.bandwidth().get();
            json.writeObjectFieldStart("bandwidth_check");
            number(json, "predicted_step_ms", check.predictedStepSeconds() * 1e3);
            number(json, "measured_step_ms", check.measuredStepSeconds() * 1e3);
            number(json, "ratio", check.ratio());
            number(json, "mean_batch", check.meanBatch());
            json.writeStringField("reading", check.reading());
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    /** Returns the HTML section (facts, figures, server vs client latencies), empty when nothing was scraped. */
    public static String html(RunResult result) {
        ServerMetricsResult view = result.serverMetrics();
        if (view.isEmpty() && !result.spec().deployment().isStated()) {
            return "";
        }
        StringBuilder out = new StringBuilder("<h2 id=\"server\">What the server saw</h2>");
        // The facts and the cost, as the console says them.
        List<String> lines = consoleLines(result);
        if (!lines.isEmpty()) {
            out.append("<ul class=\"facts\">");
            lines.forEach(line -> out.append("<li>").append(Html.escape(line)).append("</li>"));
            out.append("</ul>");
        }
        List<String> items = new ArrayList<>(List.of(
                "scraped",
                String.join(", ", view.endpoints()) + " (" + view.scrapes() + " scrapes, " + view.failedScrapes()
                        + " failed)"));
        Figures f = view.figures();
        add(items, "running requests (mean / peak)", f.meanRunning(), f.peakRunning(), "%.1f / %.0f");
        add(items, "waiting requests (mean / peak)", f.meanWaiting(), f.peakWaiting(), "%.1f / %.0f");
        add(
                items,
                "KV cache use (mean / peak)",
                f.meanKvCacheUsage() * 100,
                f.peakKvCacheUsage() * 100,
                "%.1f %% / %.1f %%");
        add(items, "preemptions", f.preemptions(), Double.NaN, "%.0f");
        add(items, "prefix cache hit rate", f.prefixCacheHitRate() * 100, Double.NaN, "%.1f %%");
        add(items, "GPU utilisation (mean)", f.meanGpuUtilization() * 100, Double.NaN, "%.1f %%");
        add(items, "GPU power (mean)", f.meanPowerWatts(), Double.NaN, "%.0f W");
        add(items, "energy per output token", f.energyPerOutputToken(), Double.NaN, "%.3f J");
        view.bandwidth().ifPresent(check -> items.addAll(List.of("bandwidth check", check.reading())));
        out.append(Html.definitions(items));
        if (!view.distributions().isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            for (Distribution d : view.distributions()) {
                rows.add(List.of(
                        d.label(),
                        Long.toString(d.count()),
                        ms(d.meanNanos()),
                        d.p50().describe(),
                        d.p90().describe(),
                        d.p99().describe()));
            }
            out.append(Html.table(List.of("server histogram", "n", "mean", "p50", "p90", "p99"), rows));
            out.append("<p class=\"note\">A histogram knows its percentiles only to a bucket: each is the bucket"
                    + " that holds it (≤ the first bound, between two bounds, or past the last); the mean is exact."
                    + "</p>");
        }
        return out.toString();
    }

    /**
     * Returns the server's time charts (requests running and waiting together, then each other series), on the
     * client charts' time axis.
     */
    public static List<String> charts(RunResult result) {
        List<Series> all = result.serverMetrics().series();
        List<String> charts = new ArrayList<>();
        Map<String, Series> byKey = new java.util.LinkedHashMap<>();
        all.forEach(s -> byKey.put(s.key(), s));
        Series running = byKey.remove("running_requests");
        Series waiting = byKey.remove("waiting_requests");
        if (running != null || waiting != null) {
            SvgChart chart =
                    new SvgChart("server-requests", "Server: requests running and waiting", "time (s)", "requests");
            if (running != null) {
                chart.steps("running", running.seconds(), running.values());
            }
            if (waiting != null) {
                chart.steps("waiting", waiting.seconds(), waiting.values());
            }
            charts.add(chart.render());
        }
        for (Series series : byKey.values()) {
            boolean fraction = series.unit().equals("fraction");
            double[] values = series.values();
            if (fraction) {
                values = java.util.Arrays.stream(values).map(v -> v * 100).toArray();
            }
            charts.add(new SvgChart(
                            "server-" + series.key().replace('_', '-'),
                            "Server: " + series.label(),
                            "time (s)",
                            fraction ? "%" : series.unit())
                    .lineWithDots(series.label(), series.seconds(), values)
                    .render());
        }
        return charts;
    }

    private static void add(List<String> items, String name, double a, double b, String format) {
        if (Double.isNaN(a)) {
            return;
        }
        items.add(name);
        items.add(Double.isNaN(b) ? String.format(Locale.ROOT, format, a) : String.format(Locale.ROOT, format, a, b));
    }

    /**
     * Writes a percentile as the bucket that holds it: {@code "p99": {"above_ms": 0, "at_most_ms": 300}}, with
     * {@code at_most_ms} null past the highest finite bound.
     */
    private static void bucketed(JsonGenerator json, String name, Bucketed bucketed) throws IOException {
        json.writeObjectFieldStart(name);
        number(json, "above_ms", bucketed.aboveNanos() / 1e6);
        number(json, "at_most_ms", bucketed.atMostNanos() / 1e6);
        json.writeEndObject();
    }

    private static String ms(double nanos) {
        return Double.isNaN(nanos) ? "-" : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    private static String fixed(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static void number(JsonGenerator json, String name, double value) throws IOException {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            json.writeNullField(name);
        } else {
            json.writeNumberField(name, value);
        }
    }
}
