package dev.goodput.core.report;

import dev.goodput.core.Metric;
import dev.goodput.core.Phase;
import dev.goodput.core.RequestRecord;
import dev.goodput.core.RunResult;
import dev.goodput.core.Summary;
import dev.goodput.core.internal.Units;
import dev.goodput.core.internal.stats.ExactDistribution;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code vllm} block of the JSON result: vLLM {@code bench serve}'s key names and definitions, computed
 * from the same samples. TTFT and E2EL are measured from the send, as vLLM does; {@code itl} is our ICL (one
 * sample per chunk gap, pooled); TPOT is the same per-request definition. Rates use our measurement window.
 */
final class VllmCompatibility {

    private VllmCompatibility() {}

    static Map<String, Object> block(RunResult result) {
        Map<String, Object> block = new LinkedHashMap<>();
        long completed = result.accounting().measured(dev.goodput.core.Outcome.SUCCESS);
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
