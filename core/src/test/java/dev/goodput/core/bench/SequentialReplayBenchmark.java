package dev.goodput.core.bench;

import dev.goodput.core.bench.coverage.ServerPreset;
import dev.goodput.core.bench.coverage.VirtualGateRun;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.slo.internal.SloEvaluator;
import dev.goodput.core.stats.internal.ExactDistribution;
import dev.goodput.core.stats.internal.MD1Queue;
import dev.goodput.core.stats.internal.SequentialBoundary;
import dev.goodput.core.testing.VirtualTimeServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Replays runs that last until decided, fast: the TTFTs of seeded fixed-length runs (200 warm-up and 4,000 measured
 * requests, in schedule order) are judged at the looks of {@code Load.untilDecided(250, 4200)} with {@link
 * SloEvaluator}, as {@code SequentialRun} judges them, stopping at the first decided verdict. On the batching
 * server this gives what {@link VerdictCoverageBenchmark}'s gates give for the same seeds to within a run per cell (a
 * gate's looks count requests by their end; docs/metrics.md, "A minimum that grows with the confidence"), in seconds
 * per rule instead of half-hours, so rules can be compared on 1,000 seeds.
 *
 * <pre>
 * java -cp ... dev.goodput.core.bench.SequentialReplayBenchmark batching 0.8 1000 236.85,121.15,579.83
 * java -cp ... dev.goodput.core.bench.SequentialReplayBenchmark md1 0.9 1000
 * </pre>
 *
 * <p>{@code batching} runs the harness's batching server at that share of its capacity, and needs the long-run truths
 * of the mean, p50 and p90 TTFT in milliseconds (docs/metrics.md's truth table); {@code md1} replays {@link
 * MD1Queue}'s waits as TTFT = 40 ms × wait + 20 ms, whose truths are exact, as {@code CorrelatedIntervalCoverageTest}
 * does. Each row: for the bound 0.9 × the truth the wrong MET verdicts while looking (and at a fixed 500 requests at
 * 95 %), for 1.1 × the wrong VIOLATED and the right MET, for 2 × those decided, those at the first look and the mean
 * measured requests to the decision (4,000 for an undecided run).
 */
public final class SequentialReplayBenchmark {

    private static final long[] LOOKS = {250, 500, 1000, 2000, 4000};
    private static final int WARMUP = 200;
    private static final int MEASURED = 4000;

    private SequentialReplayBenchmark() {}

    public static void main(String[] args) throws Exception {
        String source = args[0];
        double utilisation = Double.parseDouble(args[1]);
        int runs = Integer.parseInt(args[2]);
        double[][] ttfts;
        double[] truths;
        long started = System.nanoTime();
        if (source.equals("md1")) {
            ttfts = new double[runs][];
            for (int run = 0; run < runs; run++) {
                double[] waits = MD1Queue.waits(utilisation, WARMUP, MEASURED, run + 1);
                ttfts[run] = Arrays.stream(waits).map(w -> (40 * w + 20) * 1e6).toArray();
            }
            truths = new double[] {
                40 * MD1Queue.meanWait(utilisation) + 20,
                40 * MD1Queue.waitQuantile(utilisation, 0.5) + 20,
                40 * MD1Queue.waitQuantile(utilisation, 0.9) + 20
            };
        } else if (source.equals("batching")) {
            truths = Arrays.stream(args[3].split(","))
                    .mapToDouble(Double::parseDouble)
                    .toArray();
            ttfts = batching(utilisation, runs);
        } else {
            throw new IllegalArgumentException("source must be batching or md1, was " + source);
        }
        double confidence = SequentialBoundary.lookConfidence(LOOKS, 0.95);
        System.out.printf(
                Locale.ROOT,
                "%s at %.2f, %d runs, looks %s at %.4f (runs made in %.0f s)%n",
                source,
                utilisation,
                runs,
                Arrays.toString(LOOKS),
                confidence,
                (System.nanoTime() - started) / 1e9);
        String[] statistics = {"mean", "p50", "p90"};
        for (int s = 0; s < statistics.length; s++) {
            System.out.println(row(statistics[s], truths[s], ttfts, confidence));
        }
    }

    private static double[][] batching(double utilisation, int runs) throws Exception {
        ServerPreset preset = ServerPreset.batching(1);
        double rate = utilisation * preset.capacityPerSecond(20_000);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<double[]>> made = new ArrayList<>();
            for (long seed = 1; seed <= runs; seed++) {
                long runSeed = seed;
                made.add(pool.submit(() -> {
                    List<VirtualTimeServer.Truth> truths =
                            new ArrayList<>(VirtualGateRun.of(preset, rate, WARMUP, MEASURED, runSeed, List.of())
                                    .truths());
                    truths.sort(Comparator.comparingLong(VirtualTimeServer.Truth::index));
                    return truths.stream()
                            .filter(truth -> truth.index() >= WARMUP)
                            .mapToDouble(VirtualTimeServer.Truth::ttftNanos)
                            .toArray();
                }));
            }
            double[][] ttfts = new double[runs][];
            for (int run = 0; run < runs; run++) {
                ttfts[run] = made.get(run).get();
            }
            return ttfts;
        } finally {
            pool.shutdown();
        }
    }

    private static String row(String statistic, double truthMillis, double[][] ttfts, double confidence) {
        StringBuilder row =
                new StringBuilder(String.format(Locale.ROOT, "%-5s truth %8.2f ms", statistic, truthMillis));
        for (double factor : new double[] {0.9, 1.1, 2.0}) {
            SloSpec slo = objective(statistic, Duration.ofNanos(Math.round(factor * truthMillis * 1e6)));
            int wrong = 0;
            int decided = 0;
            int first = 0;
            int fixedWrong = 0;
            long requests = 0;
            for (double[] run : ttfts) {
                long used = MEASURED;
                for (int look = 0; look < LOOKS.length; look++) {
                    Verdict verdict = judge(slo, run, LOOKS[look], confidence);
                    if (verdict != Verdict.INCONCLUSIVE) {
                        decided++;
                        first += look == 0 ? 1 : 0;
                        wrong += verdict == (factor < 1 ? Verdict.MET : Verdict.VIOLATED) ? 1 : 0;
                        used = LOOKS[look];
                        break;
                    }
                }
                requests += used;
                fixedWrong += factor < 1 && judge(slo, run, 500, 0.95) == Verdict.MET ? 1 : 0;
            }
            if (factor < 1) {
                row.append(String.format(Locale.ROOT, " | 0.9x wrong MET %3d (fixed 500: %3d)", wrong, fixedWrong));
            } else if (factor < 1.5) {
                row.append(String.format(
                        Locale.ROOT,
                        " | 1.1x wrong VIOLATED %2d, right MET %4d, mean requests %4d",
                        wrong,
                        decided - wrong,
                        requests / ttfts.length));
            } else {
                row.append(String.format(
                        Locale.ROOT,
                        " | 2x decided %4d, first look %4d, mean requests %4d",
                        decided,
                        first,
                        requests / ttfts.length));
            }
        }
        return row.toString();
    }

    private static Verdict judge(SloSpec slo, double[] run, long count, double confidence) {
        SloVerdict verdict =
                SloEvaluator.evaluate(slo, ExactDistribution.ofOrdered(Arrays.copyOf(run, (int) count)), confidence);
        return verdict.verdict();
    }

    private static SloSpec objective(String statistic, Duration bound) {
        return switch (statistic) {
            case "mean" -> SloSpec.of(Metric.TTFT).mean().atMost(bound);
            case "p50" -> SloSpec.of(Metric.TTFT).percentile(50).atMost(bound);
            case "p90" -> SloSpec.of(Metric.TTFT).percentile(90).atMost(bound);
            default -> throw new IllegalArgumentException(statistic);
        };
    }
}
