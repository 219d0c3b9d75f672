package dev.goodput.core.bench.coverage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.slo.internal.SloEvaluator;
import dev.goodput.core.stats.internal.Confidence;
import dev.goodput.core.testing.VirtualTimeServer.Truth;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Keeps the verdict coverage harness honest: its runs go end to end and measure exactly what its server did. */
class VirtualGateRunTest {

    private static final long MS = 1_000_000;

    @Test
    void should_measure_every_request_exactly_as_the_single_slot_server_served_it() {
        ServerPreset preset = ServerPreset.singleSlot();
        for (long seed = 1; seed <= 3; seed++) {
            VirtualGateRun run = VirtualGateRun.of(preset, 0.8 * 25, 20, 300, seed, List.of());

            List<RequestRecord> records = run.snapshot().records();
            assertThat(records).hasSize(320);
            assertThat(records).extracting(RequestRecord::outcome).containsOnly(Outcome.SUCCESS);
            Map<Long, Truth> truths = byIndex(run);
            assertThat(truths).hasSize(320);
            long previousFirstToken = Long.MIN_VALUE;
            for (RequestRecord record : records) {
                Truth truth = truths.get(record.index());
                assertThat(record.dispatchedNanos()).isEqualTo(truth.arrivalNanos());
                assertThat(record.ttftNanos()).isEqualTo(truth.ttftNanos());
                assertThat(record.tpotNanos()).isEqualTo(truth.tpotNanos());
                assertThat(record.outputTokens()).isEqualTo(5);
                // M/D/1: first come, first served; never sooner than the 20 ms prefill; 5 ms per later token.
                assertThat(truth.firstTokenNanos()).isGreaterThan(previousFirstToken);
                assertThat(truth.ttftNanos()).isGreaterThanOrEqualTo(20 * MS);
                assertThat(truth.tpotNanos()).isEqualTo(5.0 * MS);
                previousFirstToken = truth.firstTokenNanos();
            }
            assertThat(records.stream().filter(r -> r.phase() == Phase.WARMUP)).hasSize(20);
        }
    }

    @Test
    void should_let_the_batching_server_vary_tpot_with_load_and_measure_it_exactly() {
        ServerPreset preset = ServerPreset.batching(7);
        VirtualGateRun run = VirtualGateRun.of(preset, 0.8 * preset.capacityPerSecond(2_000), 20, 300, 7, List.of());

        Map<Long, Truth> truths = byIndex(run);
        for (RequestRecord record : run.snapshot().records()) {
            assertThat(record.ttftNanos()).isEqualTo(truths.get(record.index()).ttftNanos());
            assertThat(record.tpotNanos()).isEqualTo(truths.get(record.index()).tpotNanos());
        }
        double[] tpots =
                truths.values().stream().mapToDouble(Truth::tpotNanos).sorted().toArray();
        // Alone a sequence decodes a token in about 12 ms; beside a full batch and prefill chunks, in up to 30.
        assertThat(tpots[tpots.length - 1]).isGreaterThan(1.3 * tpots[0]);
    }

    @Test
    void should_judge_the_run_with_the_real_result_calculator() {
        VirtualGateRun run = VirtualGateRun.of(
                ServerPreset.singleSlot(),
                0.5 * 25,
                20,
                300,
                1,
                List.of(
                        SloSpec.of(Metric.TTFT).percentile(50).atMost(Duration.ofMillis(10)),
                        SloSpec.of(Metric.TTFT).percentile(50).atMost(Duration.ofSeconds(10))));

        RunResult result = run.judge();

        // Nothing is faster than the 20 ms prefill, nothing at half load waits 10 s.
        assertThat(result.verdicts()).extracting(v -> v.verdict()).containsExactly(Verdict.VIOLATED, Verdict.MET);
        assertThat(result.verdicts().get(0).sampleCount()).isEqualTo(300);
        RunResult goodput = run.judge(List.of(
                SloSpec.of(Metric.TTFT).max().atMost(Duration.ofMillis(40)),
                SloSpec.of(Metric.GOODPUT).atLeast(1)));
        long good = run.snapshot().records().stream()
                .filter(r -> r.phase() == Phase.MEASURED && r.ttftNanos() <= 40 * MS)
                .count();
        assertThat(goodput.goodRequests()).isEqualTo(good);
    }

    @Test
    void should_stop_a_gate_whose_bound_is_twice_the_truth_at_its_first_look() {
        // A fifth of the M/D/1 server's capacity: the mean TTFT is exactly 20 ms + 40 ms * 0.2 / (2 * 0.8) = 25 ms.
        // At half load 250 requests often hold fewer than the 161 effective samples a correlated verdict needs at a
        // look's 98.7 % (SloEvaluator.minCorrelatedEffective), so there the first look decides only some runs.
        for (long seed = 1; seed <= 3; seed++) {
            Load load =
                    Load.poisson(5).untilDecided(250, 4_200).warmupRequests(200).seed(seed);
            VirtualGateRun run = VirtualGateRun.of(
                    ServerPreset.singleSlot(),
                    load,
                    seed,
                    List.of(SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofMillis(50))));

            RunResult result = run.judge();

            assertThat(result.verdicts().get(0).verdict()).isEqualTo(Verdict.MET);
            assertThat(result.runLength().decided()).isTrue();
            assertThat(result.runLength().looks()).hasSize(1);
            assertThat(result.runLength().looks().get(0).measuredRequests()).isEqualTo(250);
            assertThat(result.verdicts().get(0).sampleCount()).isEqualTo(250);
        }
    }

    @Test
    void should_count_the_requests_a_run_too_short_for_its_correlation_needs_at_its_looks_confidence() {
        // At 90 % of capacity the M/D/1 waits stay correlated for hundreds of requests: 1,000 hold far fewer than the
        // 161 effective samples a look's 98.7 % asks (the mean TTFT is 200 ms; its bound, 1.2 times that, is near).
        Load load =
                Load.poisson(22.5).untilDecided(250, 1_200).warmupRequests(200).seed(3);
        VirtualGateRun run = VirtualGateRun.of(
                ServerPreset.singleSlot(),
                load,
                3,
                List.of(SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofMillis(240))));

        RunResult result = run.judge();

        SloVerdict verdict = result.verdicts().get(0);
        double confidence = result.runLength().lookConfidence();
        double least = SloEvaluator.minCorrelatedEffective(confidence);
        assertThat(verdict.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.runLength().decided()).isFalse();
        assertThat(verdict.effectiveCount()).isLessThan(least);
        assertThat(verdict.reason())
                .endsWith("need at least " + (long) Math.ceil(least) + " effective samples for a "
                        + Confidence.percent(confidence) + "% interval");
        // At least as many more as would bring the count to the minimum, were the correlation what this run saw.
        long n = verdict.sampleCount();
        assertThat(result.runLength().moreRequestsToDecide())
                .isGreaterThanOrEqualTo((long) Math.ceil(n * least / verdict.effectiveCount()) - n);
    }

    @Test
    void should_find_the_single_slot_capacity_its_service_time_gives() {
        assertThat(ServerPreset.singleSlot().capacityPerSecond(500))
                .isCloseTo(25.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void should_give_wrong_verdict_rates_the_wilson_interval() {
        // None of 100: [0, z²/(n + z²)] = [0, 3.7 %]; 5 of 100: [2.2 %, 11.2 %] (Wilson 1927).
        assertThat(WilsonInterval.of(0, 100).lower()).isZero();
        assertThat(WilsonInterval.of(0, 100).upper()).isCloseTo(0.0370, org.assertj.core.data.Offset.offset(1e-4));
        assertThat(WilsonInterval.of(5, 100).lower()).isCloseTo(0.0215, org.assertj.core.data.Offset.offset(1e-4));
        assertThat(WilsonInterval.of(5, 100).upper()).isCloseTo(0.1118, org.assertj.core.data.Offset.offset(1e-4));
    }

    private static Map<Long, Truth> byIndex(VirtualGateRun run) {
        return run.truths().stream().collect(Collectors.toMap(Truth::index, Function.identity()));
    }
}
