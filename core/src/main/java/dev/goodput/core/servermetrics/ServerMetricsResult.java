package dev.goodput.core.servermetrics;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What the server's own metrics said about a run ({@code docs/server-metrics.md}): time series of what it
 * exported, per-run figures, the server's latency distributions next to the client's, the series Goodput does not
 * know kept raw, the bandwidth check and the two or three facts that explain the run.
 *
 * @param endpoints the URLs scraped
 * @param scrapes scrapes that returned a parsable exposition
 * @param failedScrapes scrapes that failed (timeout, connection, status, parse); reported, never fatal
 * @param failures the first distinct reasons of failed scrapes, each naming its endpoint
 * @param series what the server reported over time, in the order of {@code docs/server-metrics.md}
 * @param figures per-run figures, NaN where the server did not report what they need
 * @param distributions the server's own latency histograms over the run
 * @param unmapped series of no known meaning, kept raw (bounded)
 * @param bandwidth the bandwidth check, empty without a stated model size and GPU bandwidth
 * @param facts the server facts that explain the run, most telling first, for the console summary
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record ServerMetricsResult(
        List<String> endpoints,
        int scrapes,
        int failedScrapes,
        List<String> failures,
        List<Series> series,
        Figures figures,
        List<Distribution> distributions,
        List<RawSeries> unmapped,
        Optional<BandwidthCheck> bandwidth,
        List<String> facts) {

    /** Nothing was scraped. */
    public static final ServerMetricsResult NONE = new ServerMetricsResult(
            List.of(), 0, 0, List.of(), List.of(), Figures.NONE, List.of(), List.of(), Optional.empty(), List.of());

    public ServerMetricsResult {
        endpoints = List.copyOf(endpoints);
        failures = List.copyOf(failures);
        series = List.copyOf(series);
        distributions = List.copyOf(distributions);
        unmapped = List.copyOf(unmapped);
        facts = List.copyOf(facts);
    }

    /** Returns whether nothing was scraped or tried. */
    public boolean isEmpty() {
        return endpoints.isEmpty();
    }

    /**
     * One quantity over the run's time.
     *
     * @param key a stable name, for example {@code kv_cache_usage} or {@code preemptions_per_s}
     * @param label what a chart calls it
     * @param unit its unit
     * @param seconds each point's time since the run's first intended start (the client's time charts use the
     *     same origin)
     * @param values each point's value; a counter's points are its rate since the previous scrape
     */
    public record Series(String key, String label, String unit, double[] seconds, double[] values) {}

    /**
     * One of the server's latency histograms, the difference between its last and first scrape of the run. Its
     * percentiles are known only to a bucket (vLLM's queue-time buckets start at 0.3 s), so each is the bucket
     * that holds it, not a value interpolated inside that bucket; the mean is exact.
     *
     * @param key for example {@code server_ttft}
     * @param label for example {@code "server TTFT"}
     * @param count observations during the run
     * @param meanNanos the mean ({@code _sum / _count})
     * @param p50 the bucket that holds the median
     * @param p90 the bucket that holds the 90th percentile
     * @param p99 the bucket that holds the 99th percentile
     */
    public record Distribution(
            String key, String label, long count, double meanNanos, Bucketed p50, Bucketed p90, Bucketed p99) {}

    /**
     * Where a percentile of a server histogram lies, as far as the histogram's buckets tell: above one bound and
     * at or below the next.
     *
     * @param aboveNanos the bucket's lower bound: 0 for the first bucket
     * @param atMostNanos the bucket's upper bound: infinite when the percentile lies past the highest finite bound
     */
    public record Bucketed(double aboveNanos, double atMostNanos) {

        /**
         * Returns what the buckets support, in milliseconds: {@code "≤ 300 ms"} in the first bucket,
         * {@code "250 .. 500 ms"} in a later one, {@code "> 60000 ms"} past the highest bound.
         */
        public String describe() {
            if (atMostNanos == Double.POSITIVE_INFINITY) {
                return "> " + milliseconds(aboveNanos) + " ms";
            }
            if (aboveNanos <= 0) {
                return "≤ " + milliseconds(atMostNanos) + " ms";
            }
            return milliseconds(aboveNanos) + " .. " + milliseconds(atMostNanos) + " ms";
        }

        private static String milliseconds(double nanos) {
            return java.math.BigDecimal.valueOf(nanos / 1e6)
                    .round(new java.math.MathContext(6))
                    .stripTrailingZeros()
                    .toPlainString();
        }
    }

    /**
     * A series of no known meaning: its first and last value and its range over the run.
     *
     * @param name the metric name as exported
     * @param labels its labels
     * @param first the value at the first scrape that had it
     * @param last the value at the last
     * @param min the lowest value seen
     * @param max the highest value seen
     */
    public record RawSeries(
            String name, Map<String, String> labels, double first, double last, double min, double max) {
        public RawSeries {
            labels = Map.copyOf(labels);
        }
    }

    /**
     * Per-run figures (NaN where the server did not report what a figure needs).
     *
     * @param meanRunning mean requests in the server's running batch over the scrapes
     * @param peakRunning the most at any scrape
     * @param meanWaiting mean requests waiting in the server's queue
     * @param peakWaiting the most at any scrape
     * @param meanKvCacheUsage mean KV-cache use, 0 to 1
     * @param peakKvCacheUsage the highest at any scrape
     * @param preemptions preemptions during the run
     * @param prefixCacheHitRate prefix-cache hits over queries during the run, in tokens
     * @param generatedTokens output tokens the server counted during the run
     * @param meanGpuUtilization mean GPU utilisation, 0 to 1
     * @param meanPowerWatts mean power of all scraped GPUs together
     * @param energyJoules the GPUs' energy during the run: the rise of an energy counter when one is scraped, else
     *     power integrated over the scrapes
     * @param energyPerOutputToken {@code energyJoules / generatedTokens}
     * @param gpuCount the stated GPU count
     * @param outputTokensPerSecondPerGpu the client's output token throughput divided by the GPU count
     * @param costPerMillionGoodTokens the stated price per GPU-hour × GPUs × measurement window ÷ good requests'
     *     output tokens in millions
     */
    public record Figures(
            double meanRunning,
            double peakRunning,
            double meanWaiting,
            double peakWaiting,
            double meanKvCacheUsage,
            double peakKvCacheUsage,
            double preemptions,
            double prefixCacheHitRate,
            double generatedTokens,
            double meanGpuUtilization,
            double meanPowerWatts,
            double energyJoules,
            double energyPerOutputToken,
            int gpuCount,
            double outputTokensPerSecondPerGpu,
            double costPerMillionGoodTokens) {

        /** Nothing known. */
        public static final Figures NONE = new Figures(
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                Double.NaN,
                1,
                Double.NaN,
                Double.NaN);
    }

    /**
     * The bandwidth check: the decode step a memory-bound GPU would take at batch 1 against the step measured.
     *
     * @param predictedStepSeconds {@link Deployment#predictedDecodeStepSeconds()}
     * @param measuredStepSeconds the run's median TPOT
     * @param ratio measured over predicted
     * @param meanBatch the mean running batch the server reported (NaN when it did not): the prediction holds at
     *     batch 1
     * @param reading what the ratio suggests, in one sentence
     */
    public record BandwidthCheck(
            double predictedStepSeconds, double measuredStepSeconds, double ratio, double meanBatch, String reading) {}
}
