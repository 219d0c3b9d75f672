package dev.goodput.core.bench;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.compare.BaselineComparator;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.Comparison;
import dev.goodput.core.compare.MetricChange;
import dev.goodput.core.compare.RunDigest;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Measures how often a baseline comparison raises a false alarm (REGRESSED against an unchanged server) and how
 * often it detects a server made 15 % slower per token, with one and with two trials per side, on the shape of
 * {@code RegressionGateExample} (128 in, 128 out, Poisson 20 requests/s, 200 measured) against the simulated H100.
 * Not a test: run it by hand and read the figures.
 *
 * <p>Method: one baseline per trial count, recorded first; then {@code comparisons} runs against the unchanged
 * server and as many against the slower one (decode memory-bandwidth utilisation divided by 1.15), each compared with
 * that baseline, as pull requests are compared with one main-branch baseline.
 *
 * {@code ./mvnw -q -pl core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.goodput.core.bench.RegressionRatesBenchmark -Dexec.args="10"}
 */
public final class RegressionRatesBenchmark {

    private RegressionRatesBenchmark() {}

    public static void main(String[] args) {
        int comparisons = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        PerformanceModel model = PerformanceModel.preset("h100-llama3-8b");
        PerformanceModel slower =
                model.withUtilization(model.memoryBandwidthUtilization() / 1.15, model.modelFlopsUtilization());
        try (MockServer same = MockServer.start(MockServerConfig.defaults().withPerformanceModel(model));
                MockServer slow = MockServer.start(MockServerConfig.defaults().withPerformanceModel(slower))) {
            for (int trials : new int[] {1, 2}) {
                long started = System.nanoTime();
                RunDigest baseline = digest(same, trials);
                Map<String, Integer> unchanged = new TreeMap<>();
                Map<String, Integer> changed = new TreeMap<>();
                int falseAlarms = 0;
                int detections = 0;
                List<Double> tpotChanges = new ArrayList<>();
                for (int i = 0; i < comparisons; i++) {
                    Comparison quiet = BaselineComparator.defaults().compare(baseline, digest(same, trials));
                    unchanged.merge(quiet.verdict().name(), 1, Integer::sum);
                    if (quiet.verdict() == ChangeVerdict.INVALID) {
                        System.out.println("invalid: " + quiet.headline());
                    }
                    if (quiet.verdict() == ChangeVerdict.REGRESSED) {
                        falseAlarms++;
                        System.out.println("false alarm: " + quiet.headline());
                    }
                    Comparison slowed = BaselineComparator.defaults().compare(baseline, digest(slow, trials));
                    changed.merge(slowed.verdict().name(), 1, Integer::sum);
                    if (slowed.verdict() == ChangeVerdict.REGRESSED) {
                        detections++;
                    }
                    MetricChange tpot = slowed.change("TPOT p50");
                    if (tpot != null) {
                        tpotChanges.add(tpot.change());
                    }
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                System.out.printf(
                        Locale.ROOT,
                        "%d trial(s) per side: false alarms %d/%d %s; detected %d/%d %s; slower server's TPOT p50"
                                + " change %s; %.0f s for %d runs (%.1f s per run)%n",
                        trials,
                        falseAlarms,
                        comparisons,
                        unchanged,
                        detections,
                        comparisons,
                        changed,
                        tpotChanges.stream().map(MetricChange::percent).toList(),
                        seconds,
                        (2 * comparisons + 1) * trials,
                        seconds / ((2 * comparisons + 1) * trials));
            }
        }
    }

    private static RunDigest digest(MockServer server, int trials) {
        List<RunResult> results = new ArrayList<>();
        for (int trial = 0; trial < trials; trial++) {
            results.add(Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(128)
                            .outputTokens(128)
                            .seed(1)
                            .build())
                    .load(Load.poisson(20).seed(1).requests(210).warmupRequests(10))
                    .run());
        }
        return RunDigest.of("RegressionRatesBenchmark", results);
    }
}
