package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Phase;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.testing.FakeScheduler;
import dev.goodput.core.testing.ScriptedTransport;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class SequentialRunTest {

    private static final long MS = 1_000_000;
    private static final long START = 5_000 * MS;

    private final FakeScheduler scheduler = new FakeScheduler(START);

    /** Runs the spec on the fake scheduler against a server whose TTFT is uniform in [40, 60) ms. */
    private RunResult run(RunSpec spec) {
        Random random = new Random(7);
        ScriptedTransport transport = new ScriptedTransport(
                scheduler, attempt -> ScriptedTransport.chatStream((40 + random.nextInt(20)) * MS, 5 * MS, 3, 10));
        RunRecorder recorder = RunEngine.recorder(spec);
        LoadDriver driver = RunEngine.driver(spec, scheduler, transport, recorder);
        RunEnvironment environment = RunEnvironment.current(Instant.EPOCH);
        SequentialRun sequential = SequentialRun.attach(spec, recorder, driver, scheduler.sideWork(), environment);
        driver.start();
        scheduler.runUntilIdle(10_000_000);
        assertThat(driver.finished()).isDone();
        return sequential == null
                ? ResultCalculator.compute(spec, environment, recorder.snapshot())
                : sequential.result(environment);
    }

    private static RunSpec spec(Load load, SloSpec... objectives) {
        return Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(4).outputTokens(3).build())
                .load(load)
                .objectives(objectives)
                .build();
    }

    @Test
    void should_stop_at_the_first_look_when_the_bound_is_far_from_the_truth_and_count_the_rest_as_cool_down() {
        RunResult result = run(spec(
                Load.constantRate(100).untilDecided(200, 3_200).warmupRequests(20),
                SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(200))));

        assertThat(result.verdicts().get(0).verdict()).isEqualTo(Verdict.MET);
        assertThat(result.runLength().untilDecided()).isTrue();
        assertThat(result.runLength().decided()).isTrue();
        assertThat(result.runLength().looks()).hasSize(1);
        assertThat(result.runLength().looks().get(0).measuredRequests()).isEqualTo(200);
        assertThat(result.runLength().stopReason()).startsWith("decided at look 1 of 5, after 200 measured requests");
        // The result judges exactly the first look's requests; those created after it are cool-down, counted.
        assertThat(result.accounting().measured()).isEqualTo(200);
        assertThat(result.verdicts().get(0).sampleCount()).isEqualTo(200);
        long cooldown = result.records().stream()
                .filter(record -> record.phase() == Phase.COOLDOWN)
                .count();
        assertThat(cooldown).isPositive();
        assertThat(result.records()).hasSize((int) (20 + 200 + cooldown));
        assertThat(result.accounting().scheduled()).isEqualTo(result.records().size());
        assertThat(result.records())
                .allSatisfy(record -> assertThat(record.outcome()).isNotNull());
    }

    @Test
    void should_run_to_its_maximum_and_say_so_when_the_bound_sits_on_the_truth() {
        // TTFT takes the whole milliseconds 40 to 59 alike: half of them lie at or below 49.5 ms, the median.
        RunResult result = run(spec(
                Load.constantRate(100).untilDecided(100, 800),
                SloSpec.of(Metric.TTFT)
                        .percentile(50)
                        .atMost(Duration.ofMillis(49).plusNanos(500_000))));

        assertThat(result.verdicts().get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.runLength().decided()).isFalse();
        assertThat(result.runLength().looks())
                .extracting(look -> look.measuredRequests())
                .containsExactly(100L, 200L, 400L, 800L);
        assertThat(result.accounting().measured()).isEqualTo(800);
        assertThat(result.runLength().stopReason())
                .startsWith("not decided at its maximum, look 4 of 4 after 800 measured requests");
        // Every look judged at a level above the run's 95 %, so that the four together keep it.
        assertThat(result.runLength().lookConfidence()).isBetween(0.97, 0.995);
        assertThat(result.verdicts().get(0).interval().confidence())
                .isEqualTo(result.runLength().lookConfidence());
    }

    @Test
    void should_stop_at_the_first_look_that_finds_an_objective_violated_while_another_is_undecided() {
        // TTFT is 40 to 59 ms: a p90 of at most 20 ms is missed at once; a median bound on the median is undecidable.
        // The first look holds 200 requests: of 100, only ten lie above a p90, too few for its batch means to tell
        // independent requests from correlated ones, and a look's confidence asks more of them than 95 % does.
        RunResult result = run(spec(
                Load.constantRate(100).untilDecided(200, 1600),
                SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(20)),
                SloSpec.of(Metric.TTFT)
                        .percentile(50)
                        .atMost(Duration.ofMillis(49).plusNanos(500_000))));

        assertThat(result.verdicts())
                .extracting(verdict -> verdict.verdict())
                .containsExactly(Verdict.VIOLATED, Verdict.INCONCLUSIVE);
        assertThat(result.runLength().decided()).isTrue();
        assertThat(result.runLength().looks()).hasSize(1);
        assertThat(result.runLength().moreRequestsToDecide()).isEqualTo(-1);
        assertThat(result.accounting().measured()).isEqualTo(200);
        assertThat(result.runLength().stopReason())
                .startsWith("decided at look 1 of 4, after 200 measured requests: an objective was VIOLATED, so the"
                        + " gate fails whatever the 1 undecided ones would say");
    }

    @Test
    void should_judge_a_fixed_length_run_as_before() {
        RunResult result = run(spec(
                Load.constantRate(100).requests(300),
                SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(200))));

        assertThat(result.runLength().untilDecided()).isFalse();
        assertThat(result.accounting().measured()).isEqualTo(300);
        assertThat(result.verdicts().get(0).interval().confidence()).isEqualTo(0.95);
    }

    @Test
    void should_refuse_a_cool_down_and_a_first_look_beyond_the_maximum() {
        Assertions.assertThatThrownBy(
                        () -> Load.constantRate(10).untilDecided(100, 1_000).cooldownRequests(10))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("takes no cool-down of its own");
        Assertions.assertThatThrownBy(() ->
                        Load.constantRate(10).requests(1_000).warmupRequests(50).untilDecided(980, 1_000))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("minRequests (980) exceeds the measured requests of maxRequests (1000)");
    }

    @Test
    void should_plan_doubling_looks_and_merge_a_short_last_step() {
        assertThat(LookPlan.of(Load.constantRate(10).untilDecided(200, 3_200), 0.95)
                        .orElseThrow()
                        .measuredCounts())
                .containsExactly(200, 400, 800, 1600, 3200);
        // 1,600 of 1,800 is more than three quarters of the way: one look at 1,800 instead of two.
        assertThat(LookPlan.of(Load.constantRate(10).untilDecided(200, 1_900).warmupRequests(100), 0.95)
                        .orElseThrow()
                        .measuredCounts())
                .containsExactly(200, 400, 800, 1800);
        assertThat(LookPlan.of(Load.constantRate(10).requests(100), 0.95)).isEmpty();
    }
}
