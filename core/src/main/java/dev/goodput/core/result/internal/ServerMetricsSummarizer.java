package dev.goodput.core.result.internal;

import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ServerMetricsResult;
import dev.goodput.core.servermetrics.ServerMetricsResult.BandwidthCheck;
import dev.goodput.core.servermetrics.ServerMetricsResult.Bucketed;
import dev.goodput.core.servermetrics.ServerMetricsResult.Distribution;
import dev.goodput.core.servermetrics.ServerMetricsResult.Figures;
import dev.goodput.core.servermetrics.ServerMetricsResult.RawSeries;
import dev.goodput.core.servermetrics.ServerMetricsResult.Series;
import dev.goodput.core.servermetrics.internal.Buckets;
import dev.goodput.core.servermetrics.internal.ScrapeLog;
import dev.goodput.core.servermetrics.internal.ServerSignal;
import dev.goodput.core.slo.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a run's scrapes and its client-side result into what the server saw ({@code docs/server-metrics.md}
 * defines each figure): the series on the client's time axis, the per-run figures, the server's latency
 * distributions, the cost and energy per token, and the bandwidth check.
 */
public final class ServerMetricsSummarizer {

    /**
     * Measured over predicted decode step up to which decode is read as memory-bound: a memory-bandwidth
     * utilisation of at least 50 %. Well-run engines reach 60-80 % at batch 1, so 2× the floor leaves room for the
     * step's fixed overheads without calling a server memory-bound when half its step goes elsewhere.
     */
    static final double MEMORY_BOUND_RATIO = 2.0;

    private ServerMetricsSummarizer() {}

    /** Summarizes; with nothing scraped the figures that need no scrape (cost, per-GPU throughput) still come. */
    public static ServerMetricsResult summarize(ScrapeLog log, RunResult run, Deployment deployment) {
        long origin = run.records().stream()
                .mapToLong(RequestRecord::intendedNanos)
                .min()
                .orElse(0);
        Figures figures = figures(log, run, deployment);
        List<Distribution> distributions = distributions(log);
        Optional<BandwidthCheck> bandwidth = bandwidth(run, deployment, figures.meanRunning());
        List<String> facts = ServerFacts.of(log, run, figures, distributions, bandwidth);
        return new ServerMetricsResult(
                log.endpoints(),
                log.scrapes(),
                log.failedScrapes(),
                log.failureReasons(),
                series(log, origin),
                figures,
                distributions,
                log.unmapped().stream()
                        .map(raw ->
                                new RawSeries(raw.name(), raw.labels(), raw.first(), raw.last(), raw.min(), raw.max()))
                        .toList(),
                bandwidth,
                facts);
    }

    private static List<Series> series(ScrapeLog log, long origin) {
        List<Series> series = new ArrayList<>();
        for (ServerSignal signal : ServerSignal.values()) {
            ScrapeLog.Track track = log.track(signal);
            if (track == null || signal.kind() == ServerSignal.Kind.HISTOGRAM) {
                continue;
            }
            long[] times = track.times();
            double[] values = track.values();
            String key = signal.name().toLowerCase(Locale.ROOT);
            if (signal.kind() == ServerSignal.Kind.COUNTER) {
                series.add(rates(
                        key + "_per_s", signal.label() + " per second", signal.unit() + "/s", times, values, origin));
            } else {
                double[] seconds = new double[times.length];
                for (int i = 0; i < times.length; i++) {
                    seconds[i] = (times[i] - origin) / 1e9;
                }
                series.add(new Series(key, signal.label(), signal.unit(), seconds, values));
            }
        }
        ScrapeLog.Track hits = log.track(ServerSignal.PREFIX_CACHE_HITS);
        ScrapeLog.Track queries = log.track(ServerSignal.PREFIX_CACHE_QUERIES);
        if (hits != null && queries != null && hits.times().length == queries.times().length) {
            series.add(hitRates(hits, queries, origin));
        }
        return series;
    }

    private static Series rates(String key, String label, String unit, long[] times, double[] values, long origin) {
        int n = Math.max(0, times.length - 1);
        double[] seconds = new double[n];
        double[] rates = new double[n];
        for (int i = 1; i < times.length; i++) {
            double increase = values[i] >= values[i - 1] ? values[i] - values[i - 1] : values[i];
            seconds[i - 1] = (times[i] - origin) / 1e9;
            rates[i - 1] = increase / ((times[i] - times[i - 1]) / 1e9);
        }
        return new Series(key, label, unit, seconds, rates);
    }

    private static Series hitRates(ScrapeLog.Track hits, ScrapeLog.Track queries, long origin) {
        long[] times = hits.times();
        double[] hit = hits.values();
        double[] query = queries.values();
        List<double[]> points = new ArrayList<>();
        for (int i = 1; i < times.length; i++) {
            double asked = query[i] - query[i - 1];
            if (asked > 0) {
                points.add(new double[] {(times[i] - origin) / 1e9, Math.max(0, hit[i] - hit[i - 1]) / asked});
            }
        }
        return new Series(
                "prefix_cache_hit_rate_per_interval",
                "prefix cache hit rate",
                "fraction",
                points.stream().mapToDouble(p -> p[0]).toArray(),
                points.stream().mapToDouble(p -> p[1]).toArray());
    }

    static Figures figures(ScrapeLog log, RunResult run, Deployment deployment) {
        double hitRate =
                ratio(increase(log, ServerSignal.PREFIX_CACHE_HITS), increase(log, ServerSignal.PREFIX_CACHE_QUERIES));
        if (Double.isNaN(hitRate) && log.track(ServerSignal.PREFIX_CACHE_QUERIES) == null) {
            // SGLang counts cached tokens but not queried ones: every prompt token is looked up, so the prompt
            // tokens are the queries.
            hitRate = ratio(increase(log, ServerSignal.PREFIX_CACHE_HITS), increase(log, ServerSignal.PROMPT_TOKENS));
        }
        if (Double.isNaN(hitRate)) {
            hitRate = mean(log, ServerSignal.PREFIX_CACHE_HIT_RATE);
        }
        double generated = increase(log, ServerSignal.GENERATION_TOKENS);
        double energy = increase(log, ServerSignal.GPU_ENERGY);
        if (Double.isNaN(energy) && log.track(ServerSignal.GPU_POWER) != null) {
            energy = log.track(ServerSignal.GPU_POWER).integral();
        }
        double tokensForEnergy = Double.isNaN(generated) ? clientOutputTokens(run) : generated;
        return new Figures(
                mean(log, ServerSignal.RUNNING_REQUESTS),
                max(log, ServerSignal.RUNNING_REQUESTS),
                mean(log, ServerSignal.WAITING_REQUESTS),
                max(log, ServerSignal.WAITING_REQUESTS),
                mean(log, ServerSignal.KV_CACHE_USAGE),
                max(log, ServerSignal.KV_CACHE_USAGE),
                increase(log, ServerSignal.PREEMPTIONS),
                hitRate,
                generated,
                mean(log, ServerSignal.GPU_UTILIZATION),
                mean(log, ServerSignal.GPU_POWER),
                energy,
                ratio(energy, tokensForEnergy),
                deployment.gpuCount(),
                run.value(Metric.OUTPUT_TOKEN_THROUGHPUT) / deployment.gpuCount(),
                cost(run, deployment));
    }

    /**
     * The stated price of the GPUs over the measurement window divided by the good requests' output tokens in
     * millions; infinite when the window produced no good token, NaN without a price or a window.
     */
    static double cost(RunResult run, Deployment deployment) {
        double window = run.load().windowSeconds();
        if (Double.isNaN(deployment.pricePerGpuHour()) || !(window > 0)) {
            return Double.NaN;
        }
        long goodTokens = 0;
        for (RequestRecord record : run.records()) {
            if (record.phase() == Phase.MEASURED
                    && dev.goodput.core.result.internal.ClassSplit.isGood(record, run.spec())) {
                goodTokens += record.outputTokens();
            }
        }
        double price = deployment.pricePerGpuHour() * deployment.gpuCount() * window / 3600;
        return goodTokens == 0 ? Double.POSITIVE_INFINITY : price / (goodTokens / 1e6);
    }

    private static double clientOutputTokens(RunResult run) {
        return run.records().stream()
                .filter(RequestRecord::isSuccess)
                .mapToDouble(RequestRecord::outputTokens)
                .sum();
    }

    private static List<Distribution> distributions(ScrapeLog log) {
        List<Distribution> distributions = new ArrayList<>();
        for (ServerSignal signal : ServerSignal.values()) {
            if (signal.kind() != ServerSignal.Kind.HISTOGRAM) {
                continue;
            }
            Buckets overRun = log.histogramOverRun(signal);
            if (overRun != null && overRun.count() > 0) {
                distributions.add(new Distribution(
                        signal.name().toLowerCase(Locale.ROOT),
                        signal.label(),
                        Math.round(overRun.count()),
                        overRun.mean() * 1e9,
                        bucketed(overRun, 0.50),
                        bucketed(overRun, 0.90),
                        bucketed(overRun, 0.99)));
            }
        }
        return distributions;
    }

    /** The bucket holding quantile q, in nanoseconds; the histogram has observations, so there is one. */
    private static Bucketed bucketed(Buckets buckets, double q) {
        Buckets.Bucket bucket = buckets.bucketOf(q).orElseThrow();
        return new Bucketed(Math.max(0, bucket.lower()) * 1e9, bucket.upper() * 1e9);
    }

    static Optional<BandwidthCheck> bandwidth(RunResult run, Deployment deployment, double meanBatch) {
        double predicted = deployment.predictedDecodeStepSeconds();
        double measured = run.summary(Metric.TPOT).isEmpty()
                ? Double.NaN
                : run.summary(Metric.TPOT).percentile(50) / 1e9;
        if (!Double.isFinite(predicted) || !Double.isFinite(measured)) {
            return Optional.empty();
        }
        double ratio = measured / predicted;
        String reading;
        if (ratio < 0.8) {
            reading = String.format(
                    Locale.ROOT,
                    "decode ran %.2f× the bandwidth floor, faster than reading every weight once per token allows:"
                            + " check the stated model size, bytes per parameter and GPU (speculative decoding would"
                            + " also do this)",
                    ratio);
        } else if (ratio <= MEMORY_BOUND_RATIO) {
            reading = String.format(
                    Locale.ROOT,
                    "decode looks memory-bound: %.2f× the time to read every weight once per token (%.0f %% of the"
                            + " memory bandwidth)",
                    ratio,
                    100 / ratio);
        } else {
            reading = String.format(
                    Locale.ROOT,
                    "decode took %.1f× the bandwidth floor: something else is in the way (compute at this batch,"
                            + " scheduling or CPU overhead, a busy server)",
                    ratio);
        }
        if (meanBatch > 1.5) {
            reading += String.format(
                    Locale.ROOT,
                    "; the mean batch was %.1f and the floor holds at batch 1, so judge it at the lowest load",
                    meanBatch);
        }
        return Optional.of(new BandwidthCheck(predicted, measured, ratio, meanBatch, reading));
    }

    private static double increase(ScrapeLog log, ServerSignal signal) {
        ScrapeLog.Track track = log.track(signal);
        return track == null ? Double.NaN : track.increase();
    }

    private static double mean(ScrapeLog log, ServerSignal signal) {
        ScrapeLog.Track track = log.track(signal);
        return track == null ? Double.NaN : track.mean();
    }

    private static double max(ScrapeLog log, ServerSignal signal) {
        ScrapeLog.Track track = log.track(signal);
        return track == null ? Double.NaN : track.max();
    }

    private static double ratio(double numerator, double denominator) {
        return denominator > 0 ? numerator / denominator : Double.NaN;
    }
}
