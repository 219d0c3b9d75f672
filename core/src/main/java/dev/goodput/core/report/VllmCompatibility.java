package dev.goodput.core.report;

import dev.goodput.core.internal.Units;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.LoadStatistics;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.IntervalSweep;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import dev.goodput.core.stats.internal.ExactDistribution;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code vllm} block of the JSON result: vLLM {@code bench serve}'s key names and definitions, computed
 * from the same samples. TTFT and E2EL are measured from the send, as vLLM does; {@code itl} is our ICL (one
 * sample per chunk gap, pooled); TPOT is the same per-request definition. Rates use our measurement window.
 *
 * <p>vLLM has no warm-up, so where it takes every request this block takes the measured ones: the peaks
 * ({@code max_output_tokens_per_s}, {@code max_concurrent_requests}) look at measured successes, and the
 * per-request lists ({@code latencies}, {@code queue_times}, which vLLM saves even without
 * {@code --save-detailed}) hold one entry per measured request in request order, failures included at their
 * position.
 */
final class VllmCompatibility {

    private VllmCompatibility() {}

    static Map<String, Object> block(RunResult result) {
        Map<String, Object> block = new LinkedHashMap<>();
        long completed = result.accounting().measured(dev.goodput.core.record.Outcome.SUCCESS);
        block.put("duration", result.load().windowSeconds());
        block.put("completed", completed);
        block.put("failed", result.accounting().measured() - completed);
        block.put("total_input_tokens", result.tokens().inputTokens());
        block.put("total_output_tokens", result.tokens().outputTokens());
        block.put("request_throughput", finite(result.value(Metric.REQUEST_THROUGHPUT)));
        block.put(
                "request_goodput",
                result.spec().requestCriteria().isEmpty() ? null : finite(result.value(Metric.GOODPUT)));
        block.put("output_throughput", finite(result.value(Metric.OUTPUT_TOKEN_THROUGHPUT)));
        block.put("total_token_throughput", finite(result.value(Metric.TOTAL_TOKEN_THROUGHPUT)));
        long peakChunks = result.load().peakOutputChunksPerSecond();
        // vLLM writes this peak as a float (a maximum over a numpy array).
        block.put("max_output_tokens_per_s", peakChunks == LoadStatistics.NOT_TRACKED ? null : (double) peakChunks);
        block.put("max_concurrent_requests", maxConcurrentRequests(result));
        block.put("latencies", latencies(result));
        block.put("queue_times", queueTimes(result));
        double[] percentiles = result.spec().percentiles().stream()
                .mapToDouble(Double::doubleValue)
                .toArray();
        put(block, "ttft", result.summary(Metric.TTFT_FROM_SEND));
        put(block, "tpot", result.summary(Metric.TPOT));
        put(block, "itl", result.summary(Metric.ICL));
        put(block, "e2el", e2elFromSend(result).summarize(percentiles));
        return block;
    }

    private static ExactDistribution e2elFromSend(RunResult result) {
        return ExactDistribution.of(result.records().stream()
                .filter(r -> r.phase() == Phase.MEASURED && r.isSuccess())
                .mapToLong(RequestRecord::e2elFromSendNanos)
                .mapToDouble(nanos -> nanos)
                .toArray());
    }

    private static List<RequestRecord> measured(RunResult result) {
        return result.records().stream()
                .filter(record -> record.phase() == Phase.MEASURED)
                .toList();
    }

    /**
     * vLLM's exact sweep over {@code [start, start + latency)} of the successful requests, its start being the
     * send and its latency ending at the last content event; an end and a start at the same instant do not
     * overlap.
     */
    private static int maxConcurrentRequests(RunResult result) {
        List<RequestRecord> successes = measured(result).stream()
                .filter(RequestRecord::isSuccess)
                .filter(record -> record.e2elFromSendNanos() != RequestRecord.ABSENT)
                .toList();
        long[] starts =
                successes.stream().mapToLong(RequestRecord::dispatchedNanos).toArray();
        long[] ends = successes.stream()
                .mapToLong(record -> record.dispatchedNanos() + record.e2elFromSendNanos())
                .toArray();
        return IntervalSweep.peak(starts, ends);
    }

    /** E2EL from the send in seconds per measured request; 0 for one that did not succeed, as vLLM writes. */
    private static List<Double> latencies(RunResult result) {
        return measured(result).stream()
                .map(record -> record.isSuccess() ? seconds(record.e2elFromSendNanos()) : 0.0)
                .toList();
    }

    /**
     * Client-side queue time ({@code dispatched - intended}) in seconds per measured request, whatever its
     * outcome, as vLLM takes it before the request is sent; 0 for one that was never sent.
     */
    private static List<Double> queueTimes(RunResult result) {
        return measured(result).stream()
                .map(record -> seconds(record.queueNanos()))
                .toList();
    }

    private static double seconds(long nanos) {
        return nanos == RequestRecord.ABSENT ? 0.0 : nanos / 1e9;
    }

    private static void put(Map<String, Object> block, String name, Summary summary) {
        block.put("mean_" + name + "_ms", finite(summary.mean() / 1e6));
        block.put("median_" + name + "_ms", summary.isEmpty() ? null : finite(median(summary) / 1e6));
        block.put("std_" + name + "_ms", finite(summary.standardDeviation() / 1e6));
        summary.percentiles()
                .forEach((percentile, value) ->
                        block.put("p" + Units.formatPercentile(percentile) + "_" + name + "_ms", finite(value / 1e6)));
    }

    private static double median(Summary summary) {
        Double median = summary.percentiles().get(50.0);
        return median == null ? Double.NaN : median;
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
