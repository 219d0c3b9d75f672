package dev.goodput.core.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One run of one test as its history keeps it: which test, when, at which commit, and the run's key figures.
 *
 * @param testId the test's id, its report directory relative to the report root with {@code /} as separator (for
 *     example {@code ChatGate/chat}, {@code ChatGate/chat-run1} for a runner's first run), so that the report index
 *     matches a history to its row
 * @param time when the run started
 * @param commit the commit the run measured; empty when unknown
 * @param branch the branch the run measured; empty when unknown
 * @param goodputVersion the Goodput version that measured it
 * @param figures the key figures by key ({@link #KEY_FIGURES}), in that order; NaN where the run had none (a JSON
 *     {@code null} in the file)
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record HistoryEntry(
        String testId, Instant time, String commit, String branch, String goodputVersion, Map<String, Double> figures) {

    /** Goodput in requests/s. */
    public static final String GOODPUT_RPS = "goodput_rps";
    /** Median time to first token in milliseconds. */
    public static final String TTFT_P50_MS = "ttft_p50_ms";
    /** 99th percentile of time to first token in milliseconds. */
    public static final String TTFT_P99_MS = "ttft_p99_ms";
    /** Median time per output token in milliseconds. */
    public static final String TPOT_P50_MS = "tpot_p50_ms";
    /** 99th percentile of time per output token in milliseconds. */
    public static final String TPOT_P99_MS = "tpot_p99_ms";
    /** 99th percentile of end-to-end latency in milliseconds. */
    public static final String E2EL_P99_MS = "e2el_p99_ms";
    /** Output tokens of successful requests per second. */
    public static final String OUTPUT_TOKEN_THROUGHPUT_TPS = "output_token_throughput_tps";
    /** Non-successful measured requests divided by all measured requests. */
    public static final String ERROR_RATE = "error_rate";

    /** The keys {@link #of} records, in the order the file and the index show them. */
    public static final List<String> KEY_FIGURES = List.of(
            GOODPUT_RPS,
            TTFT_P50_MS,
            TTFT_P99_MS,
            TPOT_P50_MS,
            TPOT_P99_MS,
            E2EL_P99_MS,
            OUTPUT_TOKEN_THROUGHPUT_TPS,
            ERROR_RATE);

    public HistoryEntry {
        Objects.requireNonNull(testId, "testId");
        if (testId.isBlank()) {
            throw InvalidSettingException.of("testId", "'" + testId + "'", "must not be blank");
        }
        Objects.requireNonNull(time, "time");
        commit = commit == null ? "" : commit;
        branch = branch == null ? "" : branch;
        goodputVersion = goodputVersion == null ? "" : goodputVersion;
        Objects.requireNonNull(figures, "figures");
        Map<String, Double> copy = new LinkedHashMap<>();
        figures.forEach((key, value) ->
                copy.put(Objects.requireNonNull(key, "figure key"), value == null ? Double.NaN : value));
        figures = Collections.unmodifiableMap(copy);
    }

    /** Returns the entry of a run: its start time, Goodput version and {@link #KEY_FIGURES}. */
    public static HistoryEntry of(String testId, RunResult result, String commit, String branch) {
        Map<String, Double> figures = new LinkedHashMap<>();
        figures.put(GOODPUT_RPS, result.goodput());
        figures.put(TTFT_P50_MS, millis(result, Metric.TTFT, 50));
        figures.put(TTFT_P99_MS, millis(result, Metric.TTFT, 99));
        figures.put(TPOT_P50_MS, millis(result, Metric.TPOT, 50));
        figures.put(TPOT_P99_MS, millis(result, Metric.TPOT, 99));
        figures.put(E2EL_P99_MS, millis(result, Metric.E2EL, 99));
        figures.put(OUTPUT_TOKEN_THROUGHPUT_TPS, result.value(Metric.OUTPUT_TOKEN_THROUGHPUT));
        figures.put(ERROR_RATE, result.value(Metric.ERROR_RATE));
        return new HistoryEntry(
                testId,
                result.environment().startedAt(),
                commit,
                branch,
                result.environment().goodputVersion(),
                figures);
    }

    /** Returns a figure, NaN when the entry has none. */
    public double figure(String key) {
        Double value = figures.get(key);
        return value == null ? Double.NaN : value;
    }

    /** Returns the commit's first 7 characters, as a chart labels it; empty when unknown. */
    public String shortCommit() {
        return commit.length() <= 7 ? commit : commit.substring(0, 7);
    }

    /**
     * Returns whether a larger value of the figure is better: goodput and throughputs ({@code _rps}, {@code _tps}).
     * For every other figure (latencies, the error rate) a larger value is worse.
     */
    public static boolean higherIsBetter(String key) {
        return key.endsWith("_rps") || key.endsWith("_tps");
    }

    /** Returns a percentile in milliseconds, NaN when the run has no samples or did not compute it. */
    private static double millis(RunResult result, Metric metric, double percentile) {
        Summary summary = result.summary(metric);
        Double nanos = summary.percentiles().get(percentile);
        return summary.isEmpty() || nanos == null ? Double.NaN : nanos / 1e6;
    }
}
