package dev.goodput.core.report;

import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.ServerTimings;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.internal.ExactDistribution;
import dev.goodput.core.stats.internal.Type7Percentile;
import java.util.List;
import java.util.Locale;

/**
 * The engine's own timings of a run's measured successful requests (llama.cpp's {@code timings}) beside the
 * client's figures, for the console and JSON reports: a user sees at once how much of TTFT the engine spent on the
 * prompt and whether its per-token time matches TPOT. Empty when the server reported none.
 */
final class EngineTimings {

    final int requests;
    final double promptMillisP50;
    final double promptMillisP99;
    final double millisPerTokenP50;
    final double millisPerTokenP99;
    final double clientTtftMillisP50;
    final double clientTpotMillisP50;

    private EngineTimings(RunResult result, List<ServerTimings> timings) {
        requests = timings.size();
        ExactDistribution prompt = ExactDistribution.of(
                timings.stream().mapToDouble(ServerTimings::promptMillis).toArray());
        ExactDistribution perToken = ExactDistribution.of(timings.stream()
                .mapToDouble(ServerTimings::predictedMillisPerToken)
                .filter(value -> !Double.isNaN(value))
                .toArray());
        promptMillisP50 = Type7Percentile.of(prompt, 50);
        promptMillisP99 = Type7Percentile.of(prompt, 99);
        millisPerTokenP50 = perToken.count() == 0 ? Double.NaN : Type7Percentile.of(perToken, 50);
        millisPerTokenP99 = perToken.count() == 0 ? Double.NaN : Type7Percentile.of(perToken, 99);
        clientTtftMillisP50 = result.summary(Metric.TTFT_FROM_SEND).percentile(50) / 1e6;
        clientTpotMillisP50 = result.summary(Metric.TPOT).percentile(50) / 1e6;
    }

    /** Returns the engine's timings of the measured successes, or {@code null} when none carried any. */
    static EngineTimings of(RunResult result) {
        List<ServerTimings> timings = result.records().stream()
                .filter(record -> record.phase() == Phase.MEASURED && record.isSuccess())
                .map(RequestRecord::serverTimings)
                .filter(value -> value != null)
                .toList();
        return timings.isEmpty() ? null : new EngineTimings(result, timings);
    }

    /** The console line. */
    String describe() {
        return String.format(
                Locale.ROOT,
                "engine's own timings (%d requests): prompt p50 %.2f ms, p99 %.2f ms (client TTFT from send p50"
                        + " %.2f ms); per token p50 %.2f ms, p99 %.2f ms (client TPOT p50 %.2f ms)",
                requests,
                promptMillisP50,
                promptMillisP99,
                clientTtftMillisP50,
                millisPerTokenP50,
                millisPerTokenP99,
                clientTpotMillisP50);
    }
}
