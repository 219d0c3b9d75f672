package dev.goodput.core.bench.coverage;

import dev.goodput.core.record.Phase;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.internal.SloEvaluator;
import dev.goodput.core.stats.internal.ExactDistribution;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Every case of one server at one load and one run length: each statistic, each side of the truth. One run
 * serves them all: its latency objectives are judged together (they do not interact), goodput apart, as a gate
 * with only its per-request TTFT bound and the goodput objective (every {@code ≤} objective on a per-request metric
 * also decides which requests are good, so the latency objectives must not be in goodput's gate).
 */
public final class CoverageCases {

    private final List<CaseTally> latency = new ArrayList<>();
    private final List<CaseTally> goodput = new ArrayList<>();
    private final List<SloSpec> latencyObjectives = new ArrayList<>();
    private final List<SloSpec> goodputObjectives = new ArrayList<>();
    private final double confidence = SloEvaluator.DEFAULT_CONFIDENCE;

    public CoverageCases(
            ServerPreset preset, double utilisation, long size, List<Statistic> statistics, LongRunTruth truth) {
        goodputObjectives.add(SloSpec.of(Metric.TTFT).max().atMost(Duration.ofNanos(truth.goodTtftBoundNanos())));
        for (Statistic statistic : statistics) {
            // First the bound the truth violates, then the one it meets.
            for (double factor : statistic.isGoodput() ? new double[] {1.1, 0.9} : new double[] {0.9, 1.1}) {
                CaseTally tally = new CaseTally(
                        preset.name(), utilisation, "fixed " + size, statistic, factor, truth.value(statistic));
                (statistic.isGoodput() ? goodput : latency).add(tally);
                (statistic.isGoodput() ? goodputObjectives : latencyObjectives).add(tally.objective);
            }
        }
    }

    /** Returns the objectives a run's own spec should carry: the latency ones. */
    public List<SloSpec> latencyObjectives() {
        return latencyObjectives;
    }

    /** Counts one run's verdicts: the engine's, then the plain and the ordered recomputations for contrast. */
    public void judge(VirtualGateRun run) {
        RunResult result = run.judge();
        for (int i = 0; i < latency.size(); i++) {
            SloVerdict verdict = result.verdicts().get(i);
            latency.get(i).add(verdict, verdict.sampleCount());
            recompute(latency.get(i), result);
        }
        RunResult goodRun = run.judge(goodputObjectives);
        for (int i = 0; i < goodput.size(); i++) {
            SloVerdict verdict = goodRun.verdicts().get(i + 1);
            goodput.get(i).add(verdict, verdict.sampleCount());
        }
    }

    private void recompute(CaseTally tally, RunResult result) {
        double[] samples = result.records().stream()
                .filter(record -> record.phase() == Phase.MEASURED && record.isSuccess())
                .mapToDouble(record -> ResultCalculator.requestValue(tally.statistic.metric(), record))
                .filter(value -> !Double.isNaN(value))
                .toArray();
        tally.addRecomputed(
                SloEvaluator.evaluate(tally.objective, ExactDistribution.of(samples), confidence)
                        .verdict(),
                SloEvaluator.evaluate(tally.objective, ExactDistribution.ofOrdered(samples), confidence)
                        .verdict());
    }

    /** Prints one row per case. */
    public void print(PrintStream out) {
        out.println(CaseTally.header());
        for (CaseTally tally : latency) {
            out.println(tally.row());
        }
        for (CaseTally tally : goodput) {
            out.println(tally.row());
        }
    }
}
