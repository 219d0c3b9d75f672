package dev.goodput.core.result.internal;

import static dev.goodput.core.testing.SampleResults.RECORDS;
import static dev.goodput.core.testing.SampleResults.streamed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.Goodput;
import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Phase;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.workload.SessionWorkload;
import dev.goodput.core.workload.WorkloadMix;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The sample records of {@code ResultCalculatorTest} split into two interleaved classes: {@code a} holds the even
 * indices (0 warm-up, 2, 4, 6 cool-down), {@code b} the odd ones (1, 3, 5 failed). Every figure is worked out
 * by hand next to it.
 */
class ClassSplitTest {

    private static final long MS = 1_000_000;
    private static final ServerEndpoint SERVER = ServerEndpoint.of("http://127.0.0.1:1", "m");
    private static final WorkloadMix MIX = WorkloadMix.builder()
            .add("a", 1, WorkloadSpec.synthetic().build())
            .add("b", 1, WorkloadSpec.synthetic().build())
            .selection(WorkloadMix.Selection.INTERLEAVED)
            .build();

    private static RunResult compute(List<SloSpec> objectives) {
        RunSpec spec = Goodput.newRun(SERVER)
                .workload(MIX)
                .load(Load.constantRate(5).requests(7))
                .objectives(objectives)
                .build();
        return ResultCalculator.compute(
                spec,
                RunEnvironment.current(Instant.EPOCH),
                RunSnapshot.of(RECORDS, new Histogram(3), new Histogram(3)));
    }

    @Test
    void should_find_the_specs_notes_once_for_the_run_and_its_classes() {
        RunResult result = compute(
                List.of(SloSpec.of(Metric.TTFT).inClass("a").percentile(90).atMost(Duration.ofMillis(500))));

        assertThat(result.notes())
                .singleElement()
                .asString()
                .startsWith("p90 TTFT of a needs at least 36 measured requests")
                .endsWith("so its verdict cannot be MET");
        assertThat(result.notes()).isEqualTo(result.spec().notes());
        // One list, handed to every result: the sample sizes were not counted again for each class.
        assertThat(result.forClass("a").notes()).isSameAs(result.notes());
        assertThat(result.forClass("b").notes()).isSameAs(result.notes());
    }

    @Test
    void should_compute_each_class_from_its_own_requests() {
        RunResult result = compute(List.of());

        assertThat(result.classes()).containsOnlyKeys("a", "b");
        RunResult a = result.forClass("a");
        RunResult b = result.forClass("b");
        // a: measured 2 (TTFT 150, TPOT 100) and 4 (TTFT 50, TPOT 50); b: 1 (TTFT 100, TPOT 50), 3 (TTFT 200)
        // and 5, failed.
        assertThat(a.summary(Metric.TTFT).mean()).isEqualTo(100.0 * MS);
        assertThat(a.summary(Metric.TPOT).mean()).isCloseTo(75.0 * MS, within(1e-3));
        assertThat(b.summary(Metric.TTFT).mean()).isEqualTo(150.0 * MS);
        assertThat(b.summary(Metric.TPOT).count()).isEqualTo(1);
        assertThat(a.accounting().scheduled()).isEqualTo(4);
        assertThat(b.accounting().scheduled()).isEqualTo(3);
        assertThat(a.value(Metric.ERROR_RATE)).isZero();
        assertThat(b.value(Metric.ERROR_RATE)).isCloseTo(1.0 / 3, within(1e-9));
        // Windows: a from 100 (intended start of 2) to 760 (end of 4); b from 0 to 1000 (end of 5).
        assertThat(a.load().windowNanos()).isEqualTo(660 * MS);
        assertThat(a.value(Metric.REQUEST_THROUGHPUT)).isCloseTo(2 / 0.66, within(1e-9));
        assertThat(b.value(Metric.REQUEST_THROUGHPUT)).isCloseTo(2.0, within(1e-9));
        // Each class is offered its share of the 5 requests/s.
        assertThat(a.load().offeredRate()).isEqualTo(2.5);
        // The whole run is what it was without classes.
        assertThat(result.summary(Metric.TTFT).mean()).isEqualTo(125.0 * MS);
        assertThat(result.goodRequests()).isEqualTo(4);
    }

    @Test
    void should_judge_class_objectives_on_their_class_and_good_requests_by_every_bound_that_applies() {
        RunResult result = compute(List.of(
                SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(180)),
                SloSpec.of(Metric.TPOT).inClass("a").max().atMost(Duration.ofMillis(80)),
                SloSpec.of(Metric.TTFT).inClass("b").max().atMost(Duration.ofMillis(250))));

        assertThat(result.verdicts()).hasSize(3);
        // a's max TPOT 100 ms (request 2) breaks 80 ms; b's max TTFT 200 ms (request 3) meets 250 ms.
        assertThat(result.verdicts().get(1).verdict()).isEqualTo(Verdict.VIOLATED);
        assertThat(result.verdicts().get(1).describe()).startsWith("max TPOT of a: measured 100.00 ms");
        assertThat(result.verdicts().get(2).verdict()).isEqualTo(Verdict.MET);
        assertThat(result.verdicts().get(2).measured()).isCloseTo(200.0 * MS, within(1e-3));
        assertThat(result.forClass("a").verdicts()).hasSize(1);
        assertThat(result.forClass("b").verdicts()).hasSize(1);
        // Good: 1 (b: TTFT 100 within 180 and 250) and 4 (a: TTFT 50, TPOT 50). Not: 2 (a: TPOT 100 > 80) and
        // 3 (TTFT 200 > 180). a's TPOT bound does not judge b's requests (1 has TPOT 50 anyway; see below).
        assertThat(result.goodRequests()).isEqualTo(2);
        assertThat(result.forClass("a").goodRequests()).isEqualTo(1);
        assertThat(result.forClass("b").goodRequests()).isEqualTo(1);
        assertThat(result.forClass("b").goodput()).isCloseTo(1.0, within(1e-9));

        // A bound on b alone that request 2 of a would break leaves a's requests alone.
        RunResult classBound =
                compute(List.of(SloSpec.of(Metric.TPOT).inClass("b").max().atMost(Duration.ofMillis(60))));
        // b: 1 has TPOT 50, 3 none: both good; a: 2 (TPOT 100) and 4 stay good without a bound of their own.
        assertThat(classBound.goodRequests()).isEqualTo(4);
    }

    @Test
    void should_judge_classes_over_the_runs_steady_state_window_when_asked() {
        RunSpec spec = Goodput.newRun(SERVER)
                .workload(MIX)
                .load(Load.constantRate(5).requests(7))
                .objectives(List.of(SloSpec.of(Metric.TTFT).inClass("a").max().atMost(Duration.ofMillis(500))))
                .judgeSteadyStateOnly(true)
                .build();

        RunResult result = ResultCalculator.compute(
                spec,
                RunEnvironment.current(Instant.EPOCH),
                RunSnapshot.of(RECORDS, new Histogram(3), new Histogram(3)));

        // Five measured requests are too few for a steady state: the class's verdict cannot stand either.
        assertThat(result.load().steadyState().found()).isFalse();
        assertThat(result.forClass("a").load().steadyState())
                .isEqualTo(result.load().steadyState());
        assertThat(result.verdicts().get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.verdicts().get(0).reason()).startsWith("judged on the steady state only, and there was none");
    }

    @Test
    void should_refuse_an_objective_on_a_class_the_workload_does_not_have() {
        assertThatThrownBy(() -> compute(List.of(
                        SloSpec.of(Metric.TTFT).inClass("chat").percentile(99).atMost(Duration.ofMillis(300)))))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("trafficClass")
                .hasMessageContaining("chat")
                .hasMessageContaining("[a, b]");
        assertThatThrownBy(() -> Goodput.newRun(SERVER)
                        .workload(WorkloadSpec.synthetic().build())
                        .load(Load.constantRate(5).requests(7))
                        .objectives(List.of(SloSpec.of(Metric.TTFT)
                                .inClass("chat")
                                .percentile(99)
                                .atMost(Duration.ofMillis(300))))
                        .build())
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("no classes");
        WorkloadSpec sessions = new SessionWorkload() {
            @Override
            public int turnsOf(long session) {
                return 2;
            }

            @Override
            public dev.goodput.core.workload.RequestSpec request(long index, long session, int turn) {
                return request(index);
            }

            @Override
            public Duration thinkTime() {
                return Duration.ZERO;
            }

            @Override
            public int turnOf(long index) {
                return 1;
            }

            @Override
            public dev.goodput.core.workload.RequestSpec request(long index) {
                return WorkloadSpec.synthetic().build().request(index);
            }

            @Override
            public java.util.Map<String, Object> describe() {
                return java.util.Map.of("type", "my_sessions");
            }
        };
        // Refused before any request: the preflight is off and the server's port is closed.
        assertThatThrownBy(() -> Goodput.newRun(SERVER)
                        .workload(WorkloadMix.builder().add("s", 1, sessions).build())
                        .load(Load.constantRate(5).requests(7))
                        .preflight(false)
                        .run())
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("workload of workload class s = my_sessions cannot be mixed");
        assertThatThrownBy(() -> SloSpec.of(Metric.PREEMPTIONS).inClass("a").atMost(0))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("server's own metrics");
    }

    @Test
    void should_pool_each_class_gaps_apart_when_recording() {
        RunRecorder recorder = new RunRecorder(SecretRedaction.none(), index -> index % 2 == 0 ? "a" : "b");
        recorder.record(streamed(0, Phase.MEASURED, 0, 10, new long[] {5, 5}, new int[] {1, 1}));
        recorder.record(streamed(1, Phase.MEASURED, 0, 10, new long[] {40}, new int[] {2}));
        recorder.record(streamed(2, Phase.WARMUP, 0, 10, new long[] {7}, new int[] {1}));

        RunSnapshot snapshot = recorder.snapshot();

        assertThat(snapshot.icl().getTotalCount()).isEqualTo(3);
        assertThat(snapshot.classGaps().get("a").icl().getTotalCount()).isEqualTo(2);
        // b's one gap of 40 ms before an event of 2 tokens gives two inter-token samples of 20 ms.
        assertThat(snapshot.classGaps().get("b").itl().getTotalCount()).isEqualTo(2);
        assertThat(snapshot.classGaps().get("b").itl().getMaxValue()).isCloseTo(20 * MS, within(20 * MS / 500));
    }
}
