package dev.goodput.core.bench;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.ab.ABBlock;
import dev.goodput.core.ab.ABResult;
import dev.goodput.core.ab.ABRun;
import dev.goodput.core.ab.PairedChange;
import dev.goodput.core.ab.internal.ComparedStatistic;
import dev.goodput.core.compare.BaselineComparator;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.Comparison;
import dev.goodput.core.compare.RunDigest;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Measures the A/B gate's false-alarm and detection rates on this machine with a CPU-bound process running beside
 * it, then the stored-baseline gate's on the same machine right after. Not a test: run it by hand and read the
 * figures ({@code docs/ci-gates.md#what-the-ab-gate-detects}).
 *
 * <p>Method. A busy-loop shell process ({@code sh -c 'while :; do :; done'}) holds one of the machine's cores for the
 * whole benchmark. Three cases, each against the simulated H100 ({@code h100-llama3-8b}), 1,024 tokens in and 32 out,
 * Poisson arrivals at 20 requests/s, blocks of 28 requests (the first 4 warm-up); system properties {@code ab.rate},
 * {@code ab.input}, {@code ab.output}, {@code ab.block}, {@code ab.warmup}, {@code ab.minimumChange},
 * {@code ab.firstPairs} and {@code ab.maxPairs} change them:
 *
 * <ul>
 *   <li>A/A: two servers of the same configuration as baseline and candidate;
 *   <li>decode: a candidate 5 % slower per output token ({@code PerformanceModel.withSlowerDecode(1.05)}: every
 *       decode step takes 5 % longer);
 *   <li>prefill: a candidate 10 % slower at prefill ({@code withSlowerPrefill(1.10)}).
 * </ul>
 *
 * Each case runs {@code runs} A/B runs with seeds 1..runs, with the defaults of {@link ABRun} (minimum change,
 * looks and maximum) unless given. Then the stored-baseline gate: one fixed-length run against the baseline server
 * of as many measured requests as the A/B arm's median (the largest over the cases run), recorded as a digest; then
 * {@code baselineRuns} later runs per case against the candidate, each compared with that digest by {@link
 * BaselineComparator} at the same minimum change, as a pull request is compared with a stored main-branch baseline.
 * The digest is recorded once per invocation, after all its A/B runs: with every case in one invocation the later
 * cases' comparisons meet the machine minutes after their baseline did; with one case per invocation (the third
 * argument, a case name's start: {@code A/A}, {@code decode}, {@code prefill}) seconds after, the kindest setting
 * a stored baseline can have. {@code docs/ci-gates.md} reports both.
 *
 * {@code ./mvnw -q -pl core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.goodput.core.bench.ABGateBenchmark -Dexec.args="20 20"}
 */
public final class ABGateBenchmark {

    static final double RATE = Double.parseDouble(System.getProperty("ab.rate", "20"));
    static final int BLOCK = Integer.getInteger("ab.block", 28);
    static final int WARMUP = Integer.getInteger("ab.warmup", 4);
    static final int INPUT = Integer.getInteger("ab.input", 1024);
    static final int OUTPUT = Integer.getInteger("ab.output", 32);
    static final double MINIMUM_CHANGE =
            Double.parseDouble(System.getProperty("ab.minimumChange", String.valueOf(ABRun.DEFAULT_MINIMUM_CHANGE)));
    static final int FIRST_PAIRS = Integer.getInteger("ab.firstPairs", ABRun.DEFAULT_FIRST_LOOK_PAIRS);
    static final int MAX_PAIRS = Integer.getInteger("ab.maxPairs", ABRun.DEFAULT_MAX_PAIRS);

    private ABGateBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int baselineRuns = args.length > 1 ? Integer.parseInt(args[1]) : runs;
        String only = args.length > 2 ? args[2] : "";
        PerformanceModel model = PerformanceModel.preset("h100-llama3-8b");
        PerformanceModel slowerDecode = model.withSlowerDecode(1.05);
        PerformanceModel slowerPrefill = model.withSlowerPrefill(1.10);
        Process hog = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        // A benchmark stopped from outside (Ctrl-C, kill) would otherwise leave the hog spinning.
        Runtime.getRuntime().addShutdownHook(new Thread(hog::destroy));
        System.out.println("CPU hog started beside the benchmark: pid " + hog.pid() + ", "
                + Runtime.getRuntime().availableProcessors() + " cores");
        try (MockServer base = start(model);
                MockServer same = start(model);
                MockServer decode = start(slowerDecode);
                MockServer prefill = start(slowerPrefill)) {
            Map<String, MockServer> cases = new java.util.LinkedHashMap<>();
            cases.put("A/A", same);
            cases.put("decode +5 %", decode);
            cases.put("prefill +10 %", prefill);
            List<String> lines = new ArrayList<>();
            long medianMeasured = 0;
            for (Map.Entry<String, MockServer> entry : cases.entrySet()) {
                if (!only.isEmpty() && !entry.getKey().startsWith(only)) {
                    continue;
                }
                Map<String, Integer> verdicts = new TreeMap<>();
                List<Double> seconds = new ArrayList<>();
                List<Long> measured = new ArrayList<>();
                List<Double> floors = new ArrayList<>();
                for (int seed = 1; seed <= runs; seed++) {
                    ABResult result = ABRun.newRun(endpoint(base), endpoint(entry.getValue()))
                            .workload(workload())
                            .load(block())
                            .seed(seed)
                            .minimumChange(MINIMUM_CHANGE)
                            .pairs(FIRST_PAIRS, MAX_PAIRS)
                            .run();
                    writeBlocks(entry.getKey(), seed, result);
                    verdicts.merge(result.verdict().name(), 1, Integer::sum);
                    seconds.add(result.took().toMillis() / 1000.0);
                    measured.add(result.candidate().accounting().measured());
                    result.noiseFloor().ifPresent(c -> floors.add(c.minimumDetectableChange()));
                    System.out.printf(
                            Locale.ROOT,
                            "%s seed %d: %s; %.1f s, %s, order %s%n",
                            entry.getKey(),
                            seed,
                            result.headline(),
                            result.took().toMillis() / 1000.0,
                            result.runLength().stopReason(),
                            result.blockOrder());
                    if (seed == 1) {
                        for (PairedChange change : result.changes()) {
                            System.out.println("    " + change.describe());
                        }
                    }
                }
                medianMeasured = Math.max(
                        medianMeasured,
                        median(measured.stream().map(Long::doubleValue).toList())
                                .longValue());
                lines.add(String.format(
                        Locale.ROOT,
                        "A/B %-14s %s; median time to decision %.1f s (min %.1f, max %.1f); median noise floor %.1f %%",
                        entry.getKey(),
                        verdicts,
                        median(seconds),
                        seconds.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN),
                        seconds.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
                        median(floors) * 100));
                System.out.println(lines.get(lines.size() - 1));
            }
            if (baselineRuns > 0) {
                long requests = Math.max(medianMeasured, 8L * (BLOCK - WARMUP));
                RunDigest stored = RunDigest.of("ABGateBenchmark", List.of(run(base, requests)));
                BaselineComparator comparator = BaselineComparator.defaults().minimumChange(MINIMUM_CHANGE);
                for (Map.Entry<String, MockServer> entry : cases.entrySet()) {
                    if (!only.isEmpty() && !entry.getKey().startsWith(only)) {
                        continue;
                    }
                    Map<String, Integer> verdicts = new TreeMap<>();
                    List<Double> seconds = new ArrayList<>();
                    for (int i = 0; i < baselineRuns; i++) {
                        long started = System.nanoTime();
                        Comparison comparison = comparator.compare(
                                stored, RunDigest.of("ABGateBenchmark", List.of(run(entry.getValue(), requests))));
                        seconds.add((System.nanoTime() - started) / 1e9);
                        verdicts.merge(comparison.verdict().name(), 1, Integer::sum);
                        if (comparison.verdict() == ChangeVerdict.REGRESSED || i == 0) {
                            System.out.println("stored " + entry.getKey() + ": " + comparison.headline());
                        }
                    }
                    lines.add(String.format(
                            Locale.ROOT,
                            "stored baseline %-14s %s; %d measured requests per run, median %.1f s per run",
                            entry.getKey(),
                            verdicts,
                            requests,
                            median(seconds)));
                    System.out.println(lines.get(lines.size() - 1));
                }
            }
            System.out.println();
            lines.forEach(System.out::println);
        } finally {
            hog.destroy();
        }
    }

    static MockServer start(PerformanceModel model) {
        return MockServer.start(MockServerConfig.defaults().withPerformanceModel(model));
    }

    static ServerEndpoint endpoint(MockServer server) {
        return ServerEndpoint.of(server.baseUrl(), server.modelName());
    }

    static WorkloadSpec workload() {
        return WorkloadSpec.synthetic()
                .inputTokens(INPUT)
                .outputTokens(OUTPUT)
                .seed(1)
                .build();
    }

    static Load block() {
        return Load.poisson(RATE).seed(1).requests(BLOCK).warmupRequests(WARMUP).drain(Duration.ofSeconds(10));
    }

    static RunResult run(MockServer server, long measured) {
        return Goodput.newRun(endpoint(server))
                .workload(workload())
                .load(Load.poisson(RATE).seed(1).requests(measured + WARMUP).warmupRequests(WARMUP))
                .run();
    }

    static Double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * Appends each block's compared statistics (the thirteen an A/B run compares, read as {@link ComparedStatistic}
     * reads them for the paired estimate) to the CSV file that {@code -Dab.blocks=<file>} names, so that other
     * paired estimators can be compared offline on the same blocks ({@code .ci/ab-replay.py}); nothing is written
     * without it.
     */
    private static void writeBlocks(String caseName, int seed, ABResult result) throws IOException {
        String file = System.getProperty("ab.blocks");
        if (file == null) {
            return;
        }
        Path path = Path.of(file);
        List<ComparedStatistic> statistics = ComparedStatistic.forObjectives(List.of());
        StringBuilder rows = new StringBuilder();
        if (!Files.exists(path)) {
            rows.append("case,seed,pair,arm,first");
            statistics.forEach(statistic -> rows.append(',').append(statistic.name()));
            rows.append(",measured\n");
        }
        for (ABBlock block : result.blocks()) {
            rows.append(String.format(
                    Locale.ROOT, "%s,%d,%d,%s,%b", caseName, seed, block.pair(), block.arm(), block.firstInPair()));
            for (ComparedStatistic statistic : statistics) {
                rows.append(String.format(Locale.ROOT, ",%.6f", statistic.of(block.result())));
            }
            rows.append(',').append(block.measuredRequests()).append('\n');
        }
        Files.writeString(path, rows, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
