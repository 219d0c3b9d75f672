package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.load.Load;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A load too small for a percentile objective to be met is refused before anything is sent, with what the
 * objective needs and what the load plans; a load whose count cannot be known is noted; a run can be sized for its
 * objectives instead.
 */
class SampleSizeTest {

    private static final WorkloadSpec WORKLOAD =
            WorkloadSpec.synthetic().inputTokens(8).outputTokens(4).build();
    private static final SloSpec P90_TTFT =
            SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofSeconds(2));
    private static final SloSpec P99_TTFT =
            SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofSeconds(2));
    private static final SloSpec P999_TTFT =
            SloSpec.of(Metric.TTFT).percentile(99.9).atMost(Duration.ofSeconds(2));

    private static MockServer fixedServer() {
        return MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(1))));
    }

    private static Goodput.RunBuilder run(MockServer server, Load load, SloSpec... objectives) {
        return Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                .workload(WORKLOAD)
                .load(load)
                .objectives(objectives);
    }

    @Test
    void should_refuse_a_p99_the_planned_requests_cannot_bound_before_sending_anything() {
        try (MockServer server = fixedServer()) {
            assertThatThrownBy(() -> run(
                                    server, Load.constantRate(50).requests(110).warmupRequests(10), P99_TTFT)
                            .run())
                    .isInstanceOfSatisfying(
                            InvalidSettingException.class,
                            e -> assertThat(e.settings()).startsWith("objectives", "requests"))
                    .hasMessage("p99 TTFT needs at least 368 measured requests for a 95% upper bound; the load plans"
                            + " 100 (requests 110 - warmupRequests 10)");
            assertThat(server.groundTruth()).as("requests the server received").isEmpty();
        }
    }

    @Test
    void should_refuse_a_p99_9_naming_the_count_it_needs_and_every_setting_that_takes_requests_out() {
        assertThatThrownBy(() -> RunSpec.checkSampleSize(
                        Load.concurrency(8).requests(2000).warmupRequests(10).cooldownRequests(5),
                        List.of(P90_TTFT, P999_TTFT),
                        0.95,
                        WORKLOAD))
                .hasMessage("p99.9 TTFT needs at least 3,688 measured requests for a 95% upper bound; the load plans"
                        + " 1,985 (requests 2000 - warmupRequests 10 - cooldownRequests 5)");
    }

    @Test
    void should_estimate_an_open_loop_with_a_duration_from_rate_times_time_and_say_it_is_an_estimate() {
        assertThatThrownBy(() -> RunSpec.checkSampleSize(
                        Load.poisson(5).duration(Duration.ofSeconds(20)).warmup(Duration.ofSeconds(2)),
                        List.of(P99_TTFT),
                        0.95,
                        WORKLOAD))
                .hasMessage("p99 TTFT needs at least 368 measured requests for a 95% upper bound; the load plans"
                        + " about 90, an estimate (rate 5 req/s x duration 20 s - rate x warmup 2 s)");
        // A request limit that the duration does not reach counts the requests exactly created.
        assertThatThrownBy(() -> RunSpec.checkSampleSize(
                        Load.constantRate(2.5)
                                .requests(100)
                                .duration(Duration.ofMinutes(10))
                                .warmupRequests(5)
                                .warmup(Duration.ofSeconds(4)),
                        List.of(P99_TTFT),
                        0.95,
                        WORKLOAD))
                .hasMessage("p99 TTFT needs at least 368 measured requests for a 95% upper bound; the load plans"
                        + " about 90, an estimate (requests 100 - the larger of warmupRequests 5 and rate x warmup 4"
                        + " s)");
        RunSpec.checkSampleSize(Load.poisson(20).duration(Duration.ofSeconds(20)), List.of(P99_TTFT), 0.95, WORKLOAD);
    }

    @Test
    void should_cap_a_closed_loop_with_both_limits_at_its_request_count() {
        assertThatThrownBy(() -> RunSpec.checkSampleSize(
                        Load.concurrency(4).requests(300).duration(Duration.ofMinutes(1)),
                        List.of(P99_TTFT),
                        0.95,
                        WORKLOAD))
                .hasMessage("p99 TTFT needs at least 368 measured requests for a 95% upper bound; the load plans at"
                        + " most 300 (requests 300)");
    }

    @Test
    void should_note_a_closed_loop_with_only_a_duration_in_the_result_and_the_console_instead_of_refusing_it() {
        try (MockServer server = fixedServer()) {
            RunResult result = run(server, Load.concurrency(2).duration(Duration.ofMillis(300)), P99_TTFT)
                    .run();

            String note = "p99 TTFT needs at least 368 measured requests for a 95% upper bound; a closed loop (2"
                    + " concurrent users) with only a duration limit (300 ms) measures a number of requests that is"
                    + " not known before the run";
            assertThat(result.notes()).containsExactly(note);
            assertThat(ConsoleReport.format(result)).contains("\nnote: " + note + "\n");
            assertThat(result.verdicts().get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        }
    }

    @Test
    void should_only_note_a_load_too_small_when_told_not_to_fail() {
        try (MockServer server = fixedServer()) {
            RunResult result = run(server, Load.constantRate(200).requests(22).warmupRequests(2), P999_TTFT)
                    .failOnTooFewSamples(false)
                    .run();

            assertThat(result.accounting().scheduled()).isEqualTo(22);
            assertThat(result.notes())
                    .containsExactly("p99.9 TTFT needs at least 3,688 measured requests for a 95% upper bound; the"
                            + " load plans 20 (requests 22 - warmupRequests 2), so its verdict cannot be MET");
            assertThat(result.verdicts().get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        }
    }

    @Test
    void should_need_the_bound_that_proves_an_objective_met_at_the_spec_confidence() {
        Load load = Load.concurrency(4).requests(300);
        // A lower bound on a low percentile needs the lower end of its interval.
        assertThatThrownBy(() -> RunSpec.checkSampleSize(
                        load,
                        List.of(SloSpec.of(Metric.TPOT).percentile(1).atLeast(Duration.ofMillis(1))),
                        0.95,
                        WORKLOAD))
                .hasMessage("p1 TPOT needs at least 368 measured requests for a 95% lower bound; the load plans 300"
                        + " (requests 300)");
        // 299 samples give a p99 its 90% upper bound.
        RunSpec.checkSampleSize(load, List.of(P99_TTFT), 0.90, WORKLOAD);
        assertThatThrownBy(() -> RunSpec.checkSampleSize(
                        load,
                        List.of(SloSpec.of(Metric.E2EL).percentile(100).atMost(Duration.ofSeconds(9))),
                        0.95,
                        WORKLOAD))
                .hasMessage("p100 E2EL has no 95% upper bound at any number of requests, so it can never be met:"
                        + " bound the max instead");
    }

    @Test
    void should_leave_pooled_metrics_means_maxima_and_run_values_alone() {
        RunSpec.checkSampleSize(
                Load.concurrency(1).requests(3),
                List.of(
                        SloSpec.of(Metric.ITL).percentile(99.9).atMost(Duration.ofMillis(50)),
                        SloSpec.of(Metric.TTFT).mean().atMost(Duration.ofSeconds(1)),
                        SloSpec.of(Metric.E2EL).max().atMost(Duration.ofSeconds(1)),
                        SloSpec.of(Metric.GOODPUT).atLeast(1)),
                0.95,
                WORKLOAD);
        assertThat(SampleSize.of(Load.concurrency(1).requests(3), List.of(P90_TTFT), 0.95))
                .singleElement()
                .satisfies(size -> {
                    assertThat(size.needed()).hasValue(36);
                    assertThat(size.planned()).isEqualTo(3);
                    assertThat(size.basis()).isEqualTo(SampleSize.Basis.EXACT);
                    assertThat(size.isTooFew()).isTrue();
                });
    }

    @Test
    void should_size_the_request_limit_for_the_strictest_percentile_plus_warmup_and_cooldown() {
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:9", "m"))
                .workload(WORKLOAD)
                .load(Load.poisson(50).requests(1000).warmupRequests(20).cooldownRequests(5))
                .objectives(P90_TTFT, P99_TTFT, SloSpec.of(Metric.GOODPUT).atLeast(1))
                .sizeForObjectives()
                .build();
        assertThat(spec.load().limits().requests()).hasValue(368 + 20 + 5);
        RunSpec.checkSampleSize(spec.load(), spec.objectives(), spec.confidence(), spec.workload());

        // An open loop's time-based warm-up counts as rate x time; a duration limit stays as a cap on time.
        Load timed = SampleSize.sizedFor(
                Load.constantRate(50).duration(Duration.ofMinutes(5)).warmup(Duration.ofMillis(1500)),
                List.of(P99_TTFT),
                0.95);
        assertThat(timed.limits().requests()).hasValue(368 + 75);
        assertThat(timed.limits().duration()).hasValue(Duration.ofMinutes(5));
        assertThat(SampleSize.sizedFor(Load.concurrency(4).requests(10), List.of(P999_TTFT), 0.95)
                        .limits()
                        .requests())
                .hasValue(3688);
    }

    @Test
    void should_refuse_to_size_without_a_percentile_or_with_a_closed_loops_time_based_warmup() {
        assertThatThrownBy(() -> SampleSize.sizedFor(
                        Load.concurrency(4).requests(10),
                        List.of(SloSpec.of(Metric.GOODPUT).atLeast(1)),
                        0.95))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("sizeForObjectives needs a percentile objective on a per-request metric (TTFT, TPOT,"
                        + " E2EL, ...) to size the run for; the objectives are [goodput ≥ 1.00 req/s]");
        assertThatThrownBy(() -> SampleSize.sizedFor(
                        Load.concurrency(4).duration(Duration.ofSeconds(30)).warmup(Duration.ofSeconds(5)),
                        List.of(P99_TTFT),
                        0.95))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("sizeForObjectives cannot count the requests of a time-based warmup (5 s) of 4 concurrent"
                        + " users: set warmupRequests instead");
    }

    @Test
    void should_plan_a_class_objective_its_class_share_of_the_requests() {
        dev.goodput.core.workload.WorkloadMix mix = dev.goodput.core.workload.WorkloadMix.builder()
                .add("chat", 3, WORKLOAD)
                .add("rag", 1, WORKLOAD)
                .build();
        SloSpec ragP90 = SloSpec.of(Metric.TTFT).inClass("rag").percentile(90).atMost(Duration.ofSeconds(2));
        Load load = Load.poisson(10).requests(100);

        SampleSize size = SampleSize.of(load, List.of(ragP90), 0.95, mix).get(0);

        // p90 needs 36; the run plans 100, of which rag gets a quarter: about 25.
        assertThat(size.planned()).isEqualTo(25);
        assertThat(size.basis()).isEqualTo(SampleSize.Basis.ESTIMATE);
        assertThat(size.isTooFew()).isTrue();
        assertThat(size.describe())
                .isEqualTo("p90 TTFT of rag needs at least 36 measured requests for a 95% upper bound; the load plans"
                        + " about 25, an estimate (requests 100, of which class rag's share 25.0 %)");
        // Sized for it: 36 / 0.25 = 144 requests.
        assertThat(SampleSize.sizedFor(load, List.of(ragP90), 0.95, mix)
                        .limits()
                        .requests())
                .hasValue(144);
        // The same objective on the whole run is planned every request.
        SloSpec anyP90 = SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofSeconds(2));
        assertThat(SampleSize.of(load, List.of(anyP90), 0.95, mix).get(0).planned())
                .isEqualTo(100);
    }
}
