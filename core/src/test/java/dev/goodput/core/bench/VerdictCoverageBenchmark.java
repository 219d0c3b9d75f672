package dev.goodput.core.bench;

import dev.goodput.core.bench.coverage.CoverageCases;
import dev.goodput.core.bench.coverage.LongRunTruth;
import dev.goodput.core.bench.coverage.SequentialCases;
import dev.goodput.core.bench.coverage.ServerPreset;
import dev.goodput.core.bench.coverage.SingleSlotTruth;
import dev.goodput.core.bench.coverage.Statistic;
import dev.goodput.core.bench.coverage.TruthRun;
import dev.goodput.core.bench.coverage.VirtualGateRun;
import dev.goodput.core.load.Load;
import dev.goodput.core.slo.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Proves (or disproves) what an objective verdict claims: that at 95 % confidence a gate says MET when the truth
 * violates its bound, or VIOLATED when the truth meets it, in at most 5 % of runs. Real gates run end to end on
 * virtual time (load driver, client and SSE parsing, recorder, result calculator, objective evaluator) against the
 * mock server's own engine model with a known truth; see docs/metrics.md, "How verdict coverage is proven".
 * Not a test: it takes minutes. Run it by hand and read the table.
 *
 * <p>For each server (single-slot M/D/1, continuous batching) and utilisation (0.5, 0.8, 0.9 of capacity): one long
 * run gives the truth of every statistic; then for each run length, {@code runs} seeded runs of that length are
 * judged against objectives whose bounds lie 10 % on the wrong side of the truth, on both sides.
 *
 * <p>Then, unless {@code --no-sequential}, the same statistics in gates that last until decided ({@code
 * Load.untilDecided}, first look at 250 measured requests, at most 4,000: looks at 250, 500, 1,000, 2,000 and 4,000),
 * one gate per objective and seed, with the bounds 10 % on either side and twice as loose as the truth.
 *
 * <p>Arguments: {@code --quick} (30 runs per case, 200,000-request truths, one run length of 500), {@code --runs N},
 * {@code --truth N}, {@code --sizes 500,2000}, {@code --threads N}, {@code --only single-slot|batching}, {@code
 * --no-sequential}, {@code --sequential-only}, {@code --until 250,4000} (first look, most measured requests), {@code
 * --warmup 200} (warm-up requests of every gate run), {@code --statistic goodput} (one statistic by its name,
 * an underscore for a space: {@code mean_TTFT}), {@code --utilisations 0.8,0.9}.
 *
 * <pre>
 * ./mvnw -B -ntp -q -pl core -am test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp core/target/test-classes:core/target/classes:$(cat /tmp/cp.txt) \
 *     dev.goodput.core.bench.VerdictCoverageBenchmark --quick
 * </pre>
 */
public final class VerdictCoverageBenchmark {

    static final int TRUTH_WARMUP_REQUESTS = 2_000;
    static final long TRUTH_SEED = 1_000_000;
    static final double GOOD_TTFT_PERCENTILE = 75;
    static final double[] UTILISATIONS = {0.5, 0.8, 0.9};

    private VerdictCoverageBenchmark() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        long started = System.nanoTime();
        System.out.printf(
                Locale.ROOT,
                "verdict coverage: %d runs per case, truths of %d requests, run lengths %s, %d warm-up requests, %d threads;"
                        + " %d cores, Java %s%n",
                options.runs,
                options.truthRequests,
                options.sizes,
                options.warmup,
                options.threads,
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        ExecutorService pool = Executors.newFixedThreadPool(options.threads);
        try {
            for (ServerPreset preset : List.of(ServerPreset.singleSlot(), ServerPreset.batching(1))) {
                if (options.only != null && !options.only.equals(preset.name())) {
                    continue;
                }
                double capacity = preset.capacityPerSecond(20_000);
                List<Statistic> statistics = statistics(preset).stream()
                        .filter(statistic ->
                                options.statistic == null || statistic.name().equals(options.statistic))
                        .toList();
                for (double utilisation : options.utilisations) {
                    double rate = utilisation * capacity;
                    long caseStarted = System.nanoTime();
                    LongRunTruth truth = new LongRunTruth(
                            TruthRun.of(
                                    preset,
                                    rate,
                                    TRUTH_WARMUP_REQUESTS,
                                    truthRequests(options, preset, utilisation),
                                    TRUTH_SEED),
                            statistics,
                            GOOD_TTFT_PERCENTILE);
                    if (preset.name().equals("single-slot")) {
                        truth = SingleSlotTruth.exact(truth, statistics, utilisation, rate, GOOD_TTFT_PERCENTILE);
                    }
                    printTruth(preset, utilisation, capacity, rate, truth, statistics, caseStarted);
                    for (long size : options.fixed ? options.sizes : List.<Long>of()) {
                        CoverageCases cases = new CoverageCases(preset, utilisation, size, statistics, truth);
                        List<Future<?>> runs = new ArrayList<>();
                        for (long seed = 1; seed <= options.runs; seed++) {
                            long runSeed = seed;
                            runs.add(pool.submit(() -> cases.judge(VirtualGateRun.of(
                                    preset, rate, options.warmup, size, runSeed, cases.latencyObjectives()))));
                        }
                        for (Future<?> run : runs) {
                            run.get();
                        }
                        cases.print(System.out);
                    }
                    if (options.sequential) {
                        SequentialCases cases = new SequentialCases(
                                preset, utilisation, options.firstLook, options.maxMeasured, statistics, truth);
                        List<Future<?>> runs = new ArrayList<>();
                        for (long seed = 1; seed <= options.runs; seed++) {
                            for (int index = 0; index < cases.cases(); index++) {
                                long runSeed = seed;
                                int gate = index;
                                Load load = Load.poisson(rate)
                                        .untilDecided(options.firstLook, options.warmup + options.maxMeasured)
                                        .warmupRequests(options.warmup)
                                        .seed(runSeed);
                                runs.add(pool.submit(() -> cases.judge(
                                        gate, VirtualGateRun.of(preset, load, runSeed, cases.objectives(gate)))));
                            }
                        }
                        for (Future<?> run : runs) {
                            run.get();
                        }
                        cases.print(System.out);
                    }
                    System.out.printf(
                            Locale.ROOT, "  (%.0f s for this load)%n%n", (System.nanoTime() - caseStarted) / 1e9);
                }
            }
        } finally {
            pool.shutdown();
        }
        System.out.printf(Locale.ROOT, "total %.0f s%n", (System.nanoTime() - started) / 1e9);
    }

    static List<Statistic> statistics(ServerPreset preset) {
        List<Statistic> statistics = new ArrayList<>(List.of(
                Statistic.percentile(Metric.TTFT, 50),
                Statistic.percentile(Metric.TTFT, 90),
                Statistic.percentile(Metric.TTFT, 99),
                Statistic.mean(Metric.TTFT)));
        // The single-slot server's TPOT is the same for every request: nothing to judge.
        if (!preset.name().equals("single-slot")) {
            statistics.add(Statistic.percentile(Metric.TPOT, 90));
        }
        statistics.add(Statistic.goodput());
        return statistics;
    }

    private static void printTruth(
            ServerPreset preset,
            double utilisation,
            double capacity,
            double rate,
            LongRunTruth truth,
            List<Statistic> statistics,
            long started) {
        StringBuilder line = new StringBuilder(String.format(
                Locale.ROOT,
                "%s at %.1f of %.3f requests/s (%.3f/s): truth from %d requests (%.0f s):",
                preset.name(),
                utilisation,
                capacity,
                rate,
                truth.requests(),
                (System.nanoTime() - started) / 1e9));
        for (Statistic statistic : statistics) {
            double value = truth.value(statistic);
            if (truth.isExact(statistic)) {
                line.append(String.format(
                        Locale.ROOT,
                        " %s %s exact (long run %s ±%.1f%%);",
                        statistic.name(),
                        format(statistic, value),
                        format(statistic, truth.simulated(statistic)),
                        100 * truth.relativeHalfWidth(statistic)));
            } else {
                line.append(String.format(
                        Locale.ROOT,
                        " %s %s ±%.1f%%;",
                        statistic.name(),
                        format(statistic, value),
                        100 * truth.relativeHalfWidth(statistic)));
            }
        }
        line.append(
                String.format(Locale.ROOT, " goodput counts TTFT <= %d ms", truth.goodTtftBoundNanos() / 1_000_000));
        System.out.println(line);
    }

    /**
     * Returns the length of the long run: longer for the batching server at 0.9, whose p99 TTFT a run of the base
     * length pins to only about ±5 % (the single-slot server's truth is exact; its long run is a check).
     */
    static int truthRequests(Options options, ServerPreset preset, double utilisation) {
        return utilisation >= 0.9 && !preset.name().equals("single-slot")
                ? 4 * options.truthRequests
                : options.truthRequests;
    }

    private static String format(Statistic statistic, double value) {
        return statistic.isGoodput()
                ? String.format(Locale.ROOT, "%.3f/s", value)
                : String.format(Locale.ROOT, "%.2f ms", value / 1e6);
    }

    /** The command line. */
    record Options(
            int runs,
            int truthRequests,
            List<Long> sizes,
            int threads,
            String only,
            boolean fixed,
            boolean sequential,
            long firstLook,
            long maxMeasured,
            long warmup,
            String statistic,
            double[] utilisations) {

        static Options parse(String[] args) {
            boolean quick = List.of(args).contains("--quick");
            int runs = quick ? 30 : 100;
            int truth = quick ? 200_000 : 2_000_000;
            List<Long> sizes = quick ? List.of(500L) : List.of(500L, 2_000L);
            int threads = 2;
            String only = null;
            boolean fixed = true;
            // Sequential cases need Load.untilDecided (core 0.2): on by default; --no-sequential leaves them out.
            boolean sequential = true;
            long firstLook = 250;
            long maxMeasured = 4_000;
            long warmup = 200;
            String statistic = null;
            double[] utilisations = UTILISATIONS;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--quick" -> {}
                    case "--runs" -> runs = Integer.parseInt(args[++i]);
                    case "--truth" -> truth = Integer.parseInt(args[++i]);
                    case "--sizes" ->
                        sizes = List.of(args[++i].split(",")).stream()
                                .map(Long::parseLong)
                                .toList();
                    case "--threads" -> threads = Integer.parseInt(args[++i]);
                    case "--only" -> only = args[++i];
                    case "--no-sequential" -> sequential = false;
                    case "--sequential-only" -> fixed = false;
                    case "--warmup" -> warmup = Long.parseLong(args[++i]);
                    case "--statistic" -> statistic = args[++i].replace('_', ' ');
                    case "--utilisations" ->
                        utilisations = java.util.Arrays.stream(args[++i].split(","))
                                .mapToDouble(Double::parseDouble)
                                .toArray();
                    case "--until" -> {
                        String[] range = args[++i].split(",");
                        firstLook = Long.parseLong(range[0]);
                        maxMeasured = Long.parseLong(range[1]);
                    }
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            return new Options(
                    runs,
                    truth,
                    sizes,
                    threads,
                    only,
                    fixed,
                    sequential,
                    firstLook,
                    maxMeasured,
                    warmup,
                    statistic,
                    utilisations);
        }
    }
}
