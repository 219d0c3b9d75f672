package dev.goodput.core.sweep.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.sweep.MaxGoodput;
import dev.goodput.core.sweep.Sweep;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
import dev.goodput.core.sweep.SweepSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The grid, the search and the knee on a scripted server: every run is computed at once from records whose TTFT
 * is a function of the offered rate, so the true max goodput rate is known exactly and no time passes.
 */
class SweepSearchTest {

    private static final long MS = 1_000_000;
    private static final double CAPACITY = 7.3;

    /** TTFT 20 ms below capacity; past it, a queue that grows with the excess load. */
    private static long ttftMillis(double rate) {
        return rate <= CAPACITY ? 20 : 20 + Math.round(2000 * (rate - CAPACITY));
    }

    private static RunResult scripted(RunSpec spec) {
        double rate = ((Arrivals.AtRate) spec.load().arrivals()).rate();
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long intended = Math.round(i * 1000 / rate) * MS;
            long first = intended + ttftMillis(rate) * MS;
            records.add(new RequestRecord(
                    i,
                    Phase.MEASURED,
                    intended,
                    intended,
                    intended + MS,
                    first,
                    first + 90 * MS,
                    first + 90 * MS,
                    false,
                    200,
                    10,
                    10,
                    TokenCountSource.USAGE,
                    -1,
                    8,
                    8,
                    10 * MS,
                    "length",
                    Outcome.SUCCESS,
                    null,
                    List.of(),
                    0,
                    null,
                    StreamPhases.NONE));
        }
        return ResultCalculator.compute(
                spec,
                RunEnvironment.current(Instant.EPOCH),
                RunSnapshot.of(records, new Histogram(3), new Histogram(3)));
    }

    private static Sweep.Builder sweep() {
        return Sweep.newSweep(Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(WorkloadSpec.synthetic().outputTokens(10).build())
                .objectives(SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(100)))
                .load(Load.constantRate(1).requests(50))
                .build());
    }

    private static SweepResult run(Sweep.Builder builder) {
        return new SweepRunner(builder.build(), SweepSearchTest::scripted).run();
    }

    @Test
    void should_bisect_the_grid_bracket_to_the_resolution_and_report_every_run() {
        SweepResult result = run(sweep().rates(2, 4, 6, 8, 10).searchMaxGoodput(0.25, 6));

        MaxGoodput max = result.maxGoodput();
        assertThat(max.converged()).isTrue();
        assertThat(max.rate()).isLessThanOrEqualTo(CAPACITY).isGreaterThan(CAPACITY - 0.25);
        assertThat(max.failingRate()).isGreaterThan(CAPACITY).isLessThanOrEqualTo(max.rate() + 0.25);
        // 6 passes, 8 fails: 7, 7.5 and 7.25 close the bracket to 0.25 in three runs.
        assertThat(result.points())
                .extracting(SweepPoint::offeredRate)
                .containsExactly(2.0, 4.0, 6.0, 8.0, 10.0, 7.0, 7.5, 7.25);
        assertThat(max.runs()).hasSize(8);
        assertThat(max.describe())
                .isEqualTo("max goodput rate 7.25 req/s at 90% attainment (fails at 7.50, resolution 0.25, 8 runs)");
    }

    @Test
    void should_run_each_point_without_a_preflight_of_its_own_and_without_refusing_a_short_one() {
        List<RunSpec> runs = new ArrayList<>();
        SweepSpec spec = sweep().rates(2, 4).build();
        assertThat(spec.base().preflight()).isTrue();
        assertThat(spec.base().failOnTooFewSamples()).isTrue();

        new SweepRunner(spec, run -> {
                    runs.add(run);
                    return scripted(run);
                })
                .run();

        assertThat(runs).hasSize(2).allSatisfy(run -> {
            assertThat(run.preflight()).as("Sweep.run makes the preflight once").isFalse();
            assertThat(run.failOnTooFewSamples()).isFalse();
        });
    }

    @Test
    void should_double_while_every_rate_passes_and_stop_at_its_run_bound() {
        SweepResult result = run(sweep().rates(1).searchMaxGoodput(0.25, 3));

        assertThat(result.points()).extracting(SweepPoint::offeredRate).containsExactly(1.0, 2.0, 4.0, 8.0);
        assertThat(result.maxGoodput().converged()).isFalse();
        assertThat(result.maxGoodput().rate()).isEqualTo(4.0);
        assertThat(result.notes()).containsExactly("the search spent its 3 runs before the bracket closed");
    }

    @Test
    void should_halve_while_no_rate_passes() {
        SweepResult result = run(sweep().rates(40).searchMaxGoodput(1, 4));

        assertThat(result.points()).extracting(SweepPoint::offeredRate).startsWith(40.0, 20.0, 10.0, 5.0);
        assertThat(result.maxGoodput().rate()).isEqualTo(5.0);
    }

    @Test
    void should_find_the_knee_at_the_last_grid_rate_before_latency_turns_steep() {
        SweepResult result = run(sweep().rates(1, 2, 3, 4, 5, 6, 7, 8, 9));

        assertThat(result.kneePoint()).map(SweepPoint::offeredRate).hasValue(7.0);
        assertThat(result.maxGoodput().rate()).isEqualTo(7.0);
        assertThat(result.maxGoodput().failingRate()).isEqualTo(8.0);
    }

    @Test
    void should_find_no_knee_on_a_flat_curve() {
        SweepResult result = run(sweep().rates(1, 2, 3, 4));

        assertThat(result.kneePoint()).isEmpty();
        assertThat(result.maxGoodput().failingRate()).isNaN();
    }

    @Test
    void should_find_the_knee_on_every_run_so_a_flat_search_run_is_not_past_it() {
        SweepResult result = run(sweep().rates(2, 4, 6, 8, 10).searchMaxGoodput(0.25, 6));

        // On the grid alone the knee was 6 req/s, below the search's 7 and 7.25, both flat at 20 ms and passing.
        assertThat(result.kneePoint()).map(SweepPoint::offeredRate).hasValue(7.25);
        assertThat(result.kneePoint().orElseThrow().offeredRate())
                .isGreaterThanOrEqualTo(result.maxGoodput().rate());
    }

    @Test
    void should_say_on_the_sweep_page_why_each_failed_run_failed_and_what_the_knee_is() {
        SweepResult result = run(sweep().rates(2, 4, 6, 8, 10).searchMaxGoodput(0.25, 6));

        String page = dev.goodput.core.report.SweepHtmlReport.format(result, "sweep", "PASSED", n -> null);

        // The run at 8 req/s queued its requests for 1.4 s: its row names the objective and what was measured.
        assertThat(page)
                .contains("<span class=\"VIOLATED\">VIOLATED</span><div class=\"reason\">p90 TTFT: measured 1420.00 ms")
                .doesNotContain("<span class=\"FAILED\">FAILED</span>")
                .contains("knee at 7.25 req/s offered")
                .contains("(Kneedle on the median TTFT of all 8 runs at a set rate, search runs included)");
    }

    @Test
    void should_give_the_index_a_sweeps_figures_and_why_it_failed(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path reports) {
        SweepResult result = run(sweep().rates(2, 4, 6, 8, 10).searchMaxGoodput(0.25, 6));

        dev.goodput.core.report.Reports.writeSweep(
                result, reports.resolve("Sweep").resolve("rates"), "Sweep.rates()", "FAILED");

        assertThat(dev.goodput.core.report.ReportIndex.entries(reports))
                .singleElement()
                .satisfies(entry -> {
                    assertThat(entry.kind()).isEqualTo("sweep");
                    assertThat(entry.requests()).isEqualTo("400");
                    assertThat(entry.goodput()).isEqualTo("max 7.25 req/s");
                    assertThat(entry.why())
                            .isEqualTo(
                                    "max goodput rate 7.25 req/s at 90% attainment (fails at 7.50, resolution 0.25, 8 runs)");
                });
    }
}
