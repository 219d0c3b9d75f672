package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.stats.Summary;
import dev.goodput.core.testing.SampleResults;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Every figure here is computed by hand in the comments next to it. */
class ResultCalculatorTest {

    private static final long MS = 1_000_000;

    private static RunResult compute(List<SloSpec> objectives) {
        return SampleResults.compute(objectives);
    }

    @Test
    void should_summarise_per_request_metrics_of_measured_successes_only() {
        RunResult result = compute(List.of());

        Summary ttft = result.summary(Metric.TTFT);
        // Samples 50, 100, 150, 200 ms.
        assertThat(ttft.count()).isEqualTo(4);
        assertThat(ttft.mean()).isEqualTo(125.0 * MS);
        // Population variance (75² + 25² + 25² + 75²) / 4 = 3125 ms².
        assertThat(ttft.standardDeviation()).isCloseTo(Math.sqrt(3125) * MS, within(1.0));
        assertThat(ttft.min()).isEqualTo(50.0 * MS);
        assertThat(ttft.max()).isEqualTo(200.0 * MS);
        // Type 7: p50 at rank 1.5 → 100 + 0.5 × 50; p90 at rank 2.7 → 150 + 0.7 × 50.
        assertThat(ttft.percentile(50)).isCloseTo(125.0 * MS, within(1e-3));
        assertThat(ttft.percentile(90)).isCloseTo(185.0 * MS, within(1e-3));

        assertThat(result.summary(Metric.TTFT_FROM_SEND).mean()).isEqualTo((100 + 140 + 200 + 50) / 4.0 * MS);
        assertThat(result.summary(Metric.QUEUE_TIME).max()).isEqualTo(10.0 * MS);
        assertThat(result.summary(Metric.E2EL).mean()).isEqualTo((300 + 350 + 200 + 450) / 4.0 * MS);
        // TPOT: (300-100)/4 = 50, (450-250)/2 = 100, none for one token, (750-350)/8 = 50.
        assertThat(result.summary(Metric.TPOT).count()).isEqualTo(3);
        assertThat(result.summary(Metric.TPOT).mean()).isCloseTo(200.0 / 3 * MS, within(1e-3));
        assertThat(result.summary(Metric.MAX_STALL).count()).isEqualTo(3);
        // Send lag covers every measured request that was sent, the failed one included.
        assertThat(result.summary(Metric.SEND_LAG).count()).isEqualTo(5);
        assertThat(result.summary(Metric.ICL).count()).isEqualTo(6);
        assertThat(result.summary(Metric.ITL).count()).isEqualTo(12);
    }

    @Test
    void should_compute_rates_over_the_measurement_window() {
        RunResult result = compute(List.of());

        // The window runs from the first measured intended start (0) to the latest measured end (1000 ms).
        assertThat(result.load().windowNanos()).isEqualTo(1000 * MS);
        assertThat(result.value(Metric.REQUEST_THROUGHPUT)).isCloseTo(4.0, within(1e-9));
        // Output tokens 5 + 3 + 1 + 9 = 18; input 4 × 10 (the server's count wins over the client's 8).
        assertThat(result.value(Metric.OUTPUT_TOKEN_THROUGHPUT)).isCloseTo(18.0, within(1e-9));
        assertThat(result.value(Metric.INPUT_TOKEN_THROUGHPUT)).isCloseTo(40.0, within(1e-9));
        assertThat(result.value(Metric.TOTAL_TOKEN_THROUGHPUT)).isCloseTo(58.0, within(1e-9));
        assertThat(result.value(Metric.ERROR_RATE)).isCloseTo(0.2, within(1e-9));
        // No request-level objective: every success is good.
        assertThat(result.goodRequests()).isEqualTo(4);
        assertThat(result.value(Metric.GOODPUT)).isCloseTo(4.0, within(1e-9));
        assertThat(result.value(Metric.SLO_ATTAINMENT)).isCloseTo(0.8, within(1e-9));
        // Dispatches of measured requests at 0, 110, 200, 300, 400 ms: 4 gaps over 400 ms.
        assertThat(result.load().achievedRate()).isCloseTo(10.0, within(1e-9));
        assertThat(result.load().offeredRate()).isEqualTo(5.0);
        assertThat(result.accounting().scheduled()).isEqualTo(7);
        assertThat(result.accounting().measured()).isEqualTo(5);
        assertThat(result.accounting().measured(Outcome.FAILED)).isEqualTo(1);
        assertThat(result.tokens().prompt().compared()).isEqualTo(4);
        assertThat(result.tokens().prompt().meanDifference()).isEqualTo(2.0);
        assertThat(result.tokens().finishReasons()).containsEntry("length", 4L);
    }

    @Test
    void should_count_as_good_only_successes_that_meet_every_request_level_bound() {
        RunResult result = compute(List.of(
                SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(180)),
                SloSpec.of(Metric.TPOT).mean().atMost(Duration.ofMillis(80)),
                SloSpec.of(Metric.GOODPUT).atLeast(1.5),
                SloSpec.of(Metric.ERROR_RATE).atMost(0.1)));

        // TTFT ≤ 180 ms and TPOT ≤ 80 ms: request 1 (100, 50) and 4 (50, 50) are good; 2 has TPOT 100, 3 has
        // TTFT 200 (its missing TPOT does not count against it).
        assertThat(result.goodRequests()).isEqualTo(2);
        assertThat(result.goodput()).isCloseTo(2.0, within(1e-9));
        assertThat(result.value(Metric.SLO_ATTAINMENT)).isCloseTo(0.4, within(1e-9));
        assertThat(result.verdicts()).hasSize(4);
        assertThat(result.verdicts().get(0).measured()).isCloseTo(185.0 * MS, within(1e-3));
        assertThat(result.verdicts().get(0).verdict()).isNotEqualTo(Verdict.MET);
        // Five requests cannot show a rate or a share with 95 % confidence: goodput 2.0/s against 1.5/s and an
        // error rate of 1 in 5 against 0.1 both have intervals that hold their bounds.
        assertThat(result.verdicts().get(2).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.verdicts().get(2).interval().lower()).isLessThan(1.5);
        assertThat(result.verdicts().get(3).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.verdicts().get(3).measured()).isCloseTo(0.2, within(1e-9));
        assertThat(result.verdicts().get(3).interval().lower()).isLessThan(0.1);
        assertThat(result.verdicts().get(3).interval().upper()).isGreaterThan(0.2);
        assertThat(result.allMet()).isFalse();
    }

    @Test
    void should_report_the_peak_number_of_measured_requests_in_flight() {
        // Measured in flight: 1 [0, 300), 2 [110, 460), 3 [200, 400), 4 [300, 760), 5 [400, 1000). At 300
        // request 1 ends as 4 starts; at 400 request 3 ends as 5 starts: the peak is 3 (at 200-300, 300-400 and
        // 400-460). The warm-up request [-500, 600) would make it 4 at 200-300, and the cool-down request starts
        // after every other has ended.
        assertThat(compute(List.of()).load().peakInFlight()).isEqualTo(3);
    }

    @Test
    void should_leave_warmup_and_cooldown_requests_out_of_the_peak_in_flight() {
        // One measured request [0, 300) between a warm-up [-100, 200) and a cool-down [100, 400) request.
        RunResult result = SampleResults.compute(
                List.of(
                        SampleResults.success(0, Phase.WARMUP, -100, -100, 100, 200, 200, 3),
                        SampleResults.success(1, Phase.MEASURED, 0, 0, 100, 300, 300, 3),
                        SampleResults.success(2, Phase.COOLDOWN, 100, 100, 200, 400, 400, 3)),
                List.of());

        assertThat(result.load().peakInFlight()).isEqualTo(1);
    }

    private static RunResult withSendLags(Load load, long... lagsMillis) {
        return withSendLagsAndPauses(load, null, lagsMillis);
    }

    private static RunResult withSendLagsAndPauses(Load load, Histogram pauses, long... lagsMillis) {
        List<RequestRecord> records = new java.util.ArrayList<>();
        for (int i = 0; i < lagsMillis.length; i++) {
            long intended = i * 100L;
            long dispatched = intended + lagsMillis[i];
            records.add(SampleResults.success(
                    i, Phase.MEASURED, intended, dispatched, dispatched + 50, dispatched + 80, dispatched + 80, 3));
        }
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(WorkloadSpec.synthetic().build())
                .load(load)
                .build();
        return ResultCalculator.compute(
                spec,
                RunEnvironment.current(Instant.EPOCH),
                new RunSnapshot(
                        records,
                        new Histogram(3),
                        new Histogram(3),
                        RunSnapshot.NOT_TRACKED,
                        RunSnapshot.NOT_TRACKED,
                        RunSnapshot.NOT_TRACKED,
                        pauses));
    }

    /** A pause meter's record: {@code wakeUps} wake-ups 0.1 ms late, then one that came {@code pauseMillis} late. */
    private static Histogram pauses(int wakeUps, long pauseMillis) {
        Histogram histogram = new Histogram(3);
        for (int i = 0; i < wakeUps; i++) {
            dev.goodput.core.run.internal.PauseMeterAccess.record(histogram, MS / 10);
        }
        dev.goodput.core.run.internal.PauseMeterAccess.record(histogram, pauseMillis * MS);
        return histogram;
    }

    @Test
    void should_say_the_client_was_paused_when_its_own_threads_waited_too_long_to_run() {
        // One 200 ms pause in 10 s of 1 ms wake-ups swallowed 199 of them; put back, 200 of 10,200 samples (2 %)
        // lie at 1, 2, ... 200 ms, so the p99 (the 10,098th sample, the 98th of those) is 98 ms, above the 50 ms limit.
        // Counted as the one late wake-up it was, it would be 1 sample in 10,001 and the p99 0.1 ms.
        var health = withSendLagsAndPauses(Load.constantRate(10).requests(20), pauses(10_000, 200), new long[20])
                .clientHealth();
        assertThat(health.trustworthy()).isFalse();
        assertThat(health.pauseP99Nanos()).isCloseTo(98.0 * MS, within(0.1 * MS));
        assertThat(health.reason())
                .startsWith("the client's own threads waited to run: p99 pause 98.0")
                .contains("exceeds 50.00 ms")
                .endsWith("so tokens received meanwhile were stamped late");
        assertThat(health.sendLagP99Nanos()).isEqualTo(0.0);
    }

    @Test
    void should_trust_a_client_whose_pauses_stay_under_the_limit_and_name_both_sides_when_both_fail() {
        // A 20 ms pause puts back 20 samples in 10,020: under 1 %, so the p99 is a 0.1 ms wake-up.
        var calm = withSendLagsAndPauses(Load.constantRate(10).requests(20), pauses(10_000, 20), new long[20])
                .clientHealth();
        assertThat(calm.trustworthy()).isTrue();
        assertThat(calm.pauseP99Nanos()).isCloseTo(0.1 * MS, within(0.001 * MS));
        // Under a second of wake-ups says nothing.
        assertThat(withSendLagsAndPauses(Load.constantRate(10).requests(20), pauses(500, 200), new long[20])
                        .clientHealth()
                        .pauseP99Nanos())
                .isNaN();
        long[] lags = new long[20];
        lags[17] = 80;
        lags[18] = 80;
        lags[19] = 80;
        var both = withSendLagsAndPauses(Load.constantRate(10).requests(20), pauses(10_000, 200), lags)
                .clientHealth();
        assertThat(both.reason())
                .startsWith("the client fell behind its schedule")
                .contains("; the client's own");
    }

    @Test
    void should_say_the_client_fell_behind_when_the_send_lag_exceeds_the_limit() {
        long[] lags = new long[20];
        lags[17] = 80;
        lags[18] = 80;
        lags[19] = 80;
        // 20 samples: judged at p90 (type 7 rank 18.1 of 17 zeros and three 80s), 80 ms > 50 ms.
        var open = withSendLags(Load.constantRate(10).requests(20), lags).clientHealth();
        assertThat(open.trustworthy()).isFalse();
        assertThat(open.sendLagP99Nanos()).isEqualTo(80.0 * MS);
        assertThat(open.reason())
                .isEqualTo("the client fell behind its schedule: p90 send lag 80.00 ms exceeds 50.00 ms, so the"
                        + " server was offered less load than the profile asked for");
        var closed = withSendLags(Load.concurrency(2).requests(20), lags).clientHealth();
        assertThat(closed.reason()).endsWith("so the users waited longer between requests than their think time");
    }

    @Test
    void should_not_judge_the_client_on_one_hiccup_in_a_short_run() {
        var health =
                withSendLags(Load.constantRate(10).requests(5), 0, 0, 0, 0, 80).clientHealth();
        assertThat(health.trustworthy()).isTrue();
        assertThat(health.sendLagP99Nanos()).isNaN();
        assertThat(withSendLags(Load.constantRate(10).requests(20), new long[20])
                        .clientHealth()
                        .trustworthy())
                .isTrue();
    }
}
