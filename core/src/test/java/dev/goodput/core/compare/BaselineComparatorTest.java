package dev.goodput.core.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pins the statistics of baseline comparisons on synthetic data whose true change is known. */
class BaselineComparatorTest {

    private static final Map<String, String> IDENTITY = Map.of(
            "workload", "{\"kind\":\"synthetic\",\"input_tokens\":512}",
            "load", "{\"arrivals\":\"poisson\",\"rate\":10.0,\"requests\":400}",
            "server", "{\"base_url\":\"http://127.0.0.1:<port>\",\"model\":\"m\"}",
            "goodput_version", "0.2.0");

    /** A trial whose latencies are lognormal around the given medians, independent, with rates near 10/s. */
    static RunDigest.Trial trial(long seed, int n, double ttftMedian, double tpotMedian, double goodput) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] ttft = new double[n];
        double[] tpot = new double[n];
        double[] e2el = new double[n];
        for (int i = 0; i < n; i++) {
            ttft[i] = ttftMedian * Math.exp(0.3 * gaussian(random));
            tpot[i] = tpotMedian * Math.exp(0.1 * gaussian(random));
            e2el[i] = ttft[i] + 128 * tpot[i];
        }
        double[] slices = new double[RunDigest.SLICES];
        for (int i = 0; i < slices.length; i++) {
            slices[i] = goodput * (1 + 0.05 * gaussian(random));
        }
        Map<String, Double> rates = new HashMap<>();
        rates.put(Metric.GOODPUT.name(), goodput);
        rates.put(Metric.REQUEST_THROUGHPUT.name(), goodput);
        rates.put(Metric.OUTPUT_TOKEN_THROUGHPUT.name(), goodput * 128);
        double[] tokenSlices = java.util.Arrays.stream(slices).map(v -> v * 128).toArray();
        return new RunDigest.Trial(
                Map.of(Metric.TTFT.name(), ttft, Metric.TPOT.name(), tpot, Metric.E2EL.name(), e2el),
                rates,
                Map.of(
                        Metric.GOODPUT.name(), slices,
                        Metric.REQUEST_THROUGHPUT.name(), slices,
                        Metric.OUTPUT_TOKEN_THROUGHPUT.name(), tokenSlices),
                10.0,
                9.98,
                true,
                null,
                n,
                n);
    }

    static RunDigest digest(RunDigest.Trial... trials) {
        return digest(IDENTITY, trials);
    }

    static RunDigest digest(Map<String, String> identity, RunDigest.Trial... trials) {
        return new RunDigest(RunDigest.FORMAT, "Gate.test", "2026-11-24T00:00:00Z", "0.2.0", identity, List.of(trials));
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    private final BaselineComparator comparator = BaselineComparator.defaults();

    @Test
    void a_twenty_percent_slower_first_token_is_regressed_and_the_rest_unchanged() {
        Comparison comparison =
                comparator.compare(digest(trial(1, 1000, 100, 20, 10)), digest(trial(2, 1000, 120, 20, 10)));
        assertThat(comparison.verdict()).isEqualTo(ChangeVerdict.REGRESSED);
        assertThat(comparison.change("TTFT p50").verdict()).isEqualTo(ChangeVerdict.REGRESSED);
        assertThat(comparison.change("TTFT p50").change()).isBetween(0.15, 0.25);
        assertThat(comparison.change("TTFT p50").changeLower()).isGreaterThan(0);
        assertThat(comparison.change("TPOT p50").verdict()).isEqualTo(ChangeVerdict.UNCHANGED);
        assertThat(comparison.headline()).startsWith("REGRESSED vs baseline: TTFT p50 +");
    }

    @Test
    void a_faster_server_is_improved_not_regressed() {
        Comparison comparison =
                comparator.compare(digest(trial(1, 1000, 100, 20, 10)), digest(trial(2, 1000, 100, 16, 10)));
        assertThat(comparison.change("TPOT p50").verdict()).isEqualTo(ChangeVerdict.IMPROVED);
        assertThat(comparison.regressions()).isEmpty();
    }

    @Test
    void no_shift_is_never_regressed_over_many_seeds() {
        int regressed = 0;
        int unchangedMedians = 0;
        for (int seed = 0; seed < 100; seed++) {
            Comparison comparison = comparator.compare(
                    digest(trial(2 * seed, 1000, 100, 20, 10)), digest(trial(2 * seed + 1, 1000, 100, 20, 10)));
            regressed += comparison.regressions().size();
            if (comparison.change("TTFT p50").verdict() == ChangeVerdict.UNCHANGED) {
                unchangedMedians++;
            }
        }
        assertThat(regressed).isZero();
        assertThat(unchangedMedians).isGreaterThanOrEqualTo(95);
    }

    @Test
    void a_real_but_small_change_does_not_fail_a_pull_request() {
        Comparison comparison =
                comparator.compare(digest(trial(1, 20_000, 100, 20, 10)), digest(trial(2, 20_000, 103, 20, 10)));
        MetricChange median = comparison.change("TTFT p50");
        assertThat(median.changeLower()).isGreaterThan(0);
        assertThat(median.verdict()).isEqualTo(ChangeVerdict.UNCHANGED);
    }

    @Test
    void too_few_samples_for_an_interval_are_inconclusive() {
        Comparison comparison =
                comparator.compare(digest(trial(1, 20, 100, 20, 10)), digest(trial(2, 20, 150, 20, 10)));
        MetricChange tail = comparison.change("TTFT p99");
        assertThat(tail.verdict()).isEqualTo(ChangeVerdict.INCONCLUSIVE);
        assertThat(tail.hasInterval()).isFalse();
        assertThat(tail.method()).isEqualTo("too few samples for an interval");
    }

    @Test
    void a_lower_goodput_is_a_regression() {
        Comparison comparison =
                comparator.compare(digest(trial(1, 1000, 100, 20, 10)), digest(trial(2, 1000, 100, 20, 8)));
        assertThat(comparison.change("goodput").verdict()).isEqualTo(ChangeVerdict.REGRESSED);
        assertThat(comparison.change("goodput").lowerIsBetter()).isFalse();
    }

    @Test
    void the_spread_between_trials_keeps_noisy_runs_from_a_false_verdict() {
        // Trials whose level moves 20 % from run to run, as on a busy shared runner; the current side is 15 % slower.
        List<RunDigest.Trial> before = new ArrayList<>();
        List<RunDigest.Trial> after = new ArrayList<>();
        double[] levels = {0.85, 1.0, 1.2};
        for (int i = 0; i < levels.length; i++) {
            before.add(trial(10 + i, 1000, 100 * levels[i], 20, 10));
            after.add(trial(20 + i, 1000, 115 * levels[(i + 1) % 3], 20, 10));
        }
        Comparison oneEach = comparator.compare(digest(before.get(0)), digest(after.get(2)));
        Comparison three = comparator.compare(
                digest(before.toArray(RunDigest.Trial[]::new)), digest(after.toArray(RunDigest.Trial[]::new)));
        // One trial each cannot tell noise from change: the two runs happen to sit at the same level, so the 15 %
        // shows plainly; three trials each show that levels move by more than that from run to run.
        assertThat(oneEach.change("TTFT p50").verdict()).isEqualTo(ChangeVerdict.REGRESSED);
        assertThat(oneEach.notes()).anyMatch(note -> note.contains("run-to-run variation is not measured"));
        MetricChange pooled = three.change("TTFT p50");
        assertThat(pooled.method()).isEqualTo("spread between 3 trials");
        assertThat(pooled.verdict()).isEqualTo(ChangeVerdict.INCONCLUSIVE);
    }

    @Test
    void objectives_add_their_own_statistics() {
        BaselineComparator withObjectives = comparator.objectives(List.of(
                SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(200)),
                SloSpec.of(Metric.TPOT).mean().atMost(Duration.ofMillis(30)),
                SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(300))));
        Comparison comparison =
                withObjectives.compare(digest(trial(1, 1000, 100, 20, 10)), digest(trial(2, 1000, 100, 20, 10)));
        assertThat(comparison.changes())
                .extracting(MetricChange::name)
                .containsExactly(
                        "TTFT p50",
                        "TTFT p99",
                        "TPOT p50",
                        "TPOT p99",
                        "E2EL p50",
                        "E2EL p99",
                        "goodput",
                        "output token throughput",
                        "TTFT p90",
                        "TPOT mean");
    }

    @Test
    void a_different_load_is_refused_with_the_differing_field() {
        Map<String, String> other = new HashMap<>(IDENTITY);
        other.put("load", "{\"arrivals\":\"poisson\",\"rate\":12.0,\"requests\":400}");
        Comparison comparison =
                comparator.compare(digest(trial(1, 1000, 100, 20, 10)), digest(other, trial(2, 1000, 100, 20, 10)));
        assertThat(comparison.verdict()).isEqualTo(ChangeVerdict.INVALID);
        assertThat(comparison.changes()).isEmpty();
        assertThat(comparison.differences()).containsExactly("load.rate: baseline 10.0, current 12.0");
    }

    @Test
    void another_goodput_version_or_server_is_refused() {
        Map<String, String> other = new HashMap<>(IDENTITY);
        other.put("goodput_version", "0.3.0");
        other.put("server", "{\"base_url\":\"http://127.0.0.1:<port>\",\"model\":\"other\"}");
        Comparison comparison =
                comparator.compare(digest(trial(1, 1000, 100, 20, 10)), digest(other, trial(2, 1000, 100, 20, 10)));
        assertThat(comparison.differences())
                .containsExactlyInAnyOrder(
                        "goodput_version: baseline 0.2.0, current 0.3.0", "server.model: baseline m, current other");
    }

    @Test
    void an_untrustworthy_client_or_a_drifted_load_is_refused() {
        RunDigest.Trial good = trial(1, 500, 100, 20, 10);
        RunDigest.Trial lagging = new RunDigest.Trial(
                good.samples(), good.rates(), good.rateSlices(), 10.0, 8.0, false, "p99 send lag 80 ms", 500, 500);
        Comparison comparison = comparator.compare(digest(good), digest(good, lagging));
        assertThat(comparison.verdict()).isEqualTo(ChangeVerdict.INVALID);
        assertThat(comparison.differences())
                .containsExactly(
                        "current run trial 2: the client did not keep up (p99 send lag 80 ms)",
                        "current run trial 2: sent 8.000 requests/s of the 10.000 intended (-20.0 %), more than the 5 %"
                                + " drift allowed");
    }

    @Test
    void the_minimum_change_is_checked() {
        assertThatThrownBy(() -> comparator.minimumChange(1.5))
                .hasMessage("minimumChange = 1.5 must be at least 0 and below 1");
    }

    @Test
    void a_digest_survives_its_file(@TempDir Path directory) {
        RunDigest digest = digest(trial(1, 50, 100, 20, 10), trial(2, 50, 100, 20, 10));
        Path file = digest.write(directory.resolve("baselines/Gate.test.json"));
        RunDigest read = RunDigest.read(file);
        assertThat(read.identity()).isEqualTo(IDENTITY);
        assertThat(read.trials()).hasSize(2);
        assertThat(read.trials().get(1).samples(Metric.TTFT))
                .containsExactly(digest.trials().get(1).samples(Metric.TTFT));
        Comparison same = comparator.compare(digest, read);
        assertThat(same.changes()).allMatch(change -> change.change() == 0);
    }

    @Test
    void a_file_that_is_not_a_baseline_is_named(@TempDir Path directory) throws Exception {
        Path file = java.nio.file.Files.writeString(directory.resolve("x.json"), "[1, 2]");
        assertThatThrownBy(() -> RunDigest.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(file + " is not a Goodput baseline: ");
    }
}
