package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.SteadyState;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.testing.SampleResults;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Judging inside the steady window, on hand-made records: 100 requests/s, each 500 ms long, so completions start
 * half a second after the arrivals; the requests meant to start in that first half second were slow to their
 * first token (a cold server), the rest took 50 ms.
 */
class SteadyJudgingTest {

    private static final SloSpec MAX_TTFT = SloSpec.of(Metric.TTFT).max().atMost(Duration.ofMillis(100));

    private static List<RequestRecord> coldStart(int requests) {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            long intended = 10L * i;
            long ttft = intended < 500 ? 400 : 50;
            records.add(SampleResults.success(
                    i, Phase.MEASURED, intended, intended, intended + ttft, intended + 450, intended + 500, 8));
        }
        return records;
    }

    private static RunResult compute(List<RequestRecord> records, boolean steadyOnly) {
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(WorkloadSpec.synthetic().build())
                .load(Load.constantRate(100).requests(records.size()))
                .objectives(MAX_TTFT)
                .judgeSteadyStateOnly(steadyOnly)
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
                        null));
    }

    @Test
    void should_judge_the_whole_window_by_default_and_still_report_the_steady_state() {
        RunResult result = compute(coldStart(400), false);

        assertThat(result.verdicts())
                .singleElement()
                .extracting(v -> v.verdict())
                .isEqualTo(Verdict.VIOLATED);
        assertThat(result.summary(Metric.TTFT).count()).isEqualTo(400);
        SteadyState steady = result.load().steadyState();
        assertThat(steady.found()).as(steady.reason()).isTrue();
        assertThat(steady.startNanos()).isBetween(450_000_000L, 700_000_000L);
    }

    @Test
    void should_judge_only_the_requests_that_started_inside_the_window_when_asked() {
        RunResult result = compute(coldStart(400), true);

        SteadyState steady = result.load().steadyState();
        assertThat(result.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.verdict()).isEqualTo(Verdict.MET);
            assertThat(v.measured()).isEqualTo(50e6);
            assertThat(v.sampleCount()).isEqualTo(steady.requests());
        });
        assertThat(result.summary(Metric.TTFT).count())
                .isEqualTo(steady.requests())
                .isLessThan(360);
        // Rates are over the steady window: about 100 successes a second.
        assertThat(result.value(Metric.REQUEST_THROUGHPUT)).isBetween(95.0, 105.0);
        // The accounting still counts every request the schedule created.
        assertThat(result.accounting().scheduled()).isEqualTo(400);
        assertThat(result.accounting().isBalanced()).isTrue();
    }

    @Test
    void should_make_every_verdict_inconclusive_when_asked_to_judge_a_steady_state_there_was_not() {
        RunResult result = compute(coldStart(60), true);

        assertThat(result.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(v.measured()).isEqualTo(400e6);
            assertThat(v.reason())
                    .isEqualTo("judged on the steady state only, and there was none: too few measured requests to"
                            + " tell a ramp from noise (60, needs at least 100)");
        });
        assertThat(result.accounting().scheduled()).isEqualTo(60);
    }

    @Test
    void should_show_the_window_in_the_console_the_json_and_shaded_on_the_time_charts() throws Exception {
        RunResult result = compute(coldStart(400), true);
        SteadyState steady = result.load().steadyState();

        assertThat(dev.goodput.core.report.ConsoleReport.format(result))
                .containsPattern("steady state: 0\\.[56]\\d s \\.\\. 3\\.[89]\\d s of the window \\(3\\.\\d\\d s\\), "
                        + steady.requests()
                        + " of 400 measured requests \\(8\\d%\\) inside; offered 10\\d\\.\\d\\d req/s,"
                        + " achieved \\d+\\.\\d\\d req/s, mean in flight 5\\d\\.\\d; objectives judged inside it\n");
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dev.goodput.core.report.JsonReport.toJson(result))
                .get("load")
                .get("steady_state");
        assertThat(json.get("found").asBoolean()).isTrue();
        assertThat(json.get("judged_inside").asBoolean()).isTrue();
        assertThat(json.get("requests").asLong()).isEqualTo(steady.requests());
        assertThat(json.get("start_s").asDouble()).isEqualTo(steady.startNanos() / 1e9);
        assertThat(dev.goodput.core.report.internal.RunCharts.overTime(result))
                .hasSize(3)
                .allSatisfy(
                        svg -> assertThat(svg).contains("<rect class=\"band\"").contains("steady state"));
    }

    @Test
    void should_say_why_there_is_no_window_in_the_console_and_the_json() throws Exception {
        RunResult result = compute(coldStart(60), true);

        assertThat(dev.goodput.core.report.ConsoleReport.format(result))
                .contains("steady state: none, too few measured requests to tell a ramp from noise (60, needs at least"
                        + " 100); objectives inconclusive\n");
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(dev.goodput.core.report.JsonReport.toJson(result))
                        .at("/load/steady_state/reason")
                        .asText())
                .startsWith("too few measured requests");
        assertThat(dev.goodput.core.report.internal.RunCharts.overTime(result))
                .noneSatisfy(svg -> assertThat(svg).contains("class=\"band\""));
    }
}
