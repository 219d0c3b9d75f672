package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.report.ReportIndex;
import dev.goodput.core.report.Reports;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * {@code @LoadSweep} against the {@code single-slot} simulated server: one request at a time, 100 ms to the first
 * token and 20 ms per further token, so 4-token requests take 160 ms and the server saturates at exactly 6.25
 * requests/s. Below that every request starts at once; above it the queue and TTFT grow without bound.
 */
class LoadSweepExtensionTest {

    private static final double SATURATION = 1 / 0.160;

    @TempDir
    Path reports;

    private Events tests(Class<?> testCase) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .selectors(selectClass(testCase))
                .execute()
                .testEvents();
    }

    @GoodputTest
    @SimulatedServer(preset = "single-slot")
    static class SustainsFourRequestsPerSecond {
        static SweepResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @Slo(metric = TTFT, percentile = 90, atMost = 300)
        @LoadSweep(
                rates = {5, 8},
                runSeconds = 4,
                warmupSeconds = 1,
                drainSeconds = 3,
                resolution = 1,
                maxSearchRuns = 2)
        @MaxGoodputRate(atLeast = 4)
        void sweep(SweepResult result) {
            captured = result;
        }
    }

    @Test
    void should_inject_the_sweep_and_pass_when_the_max_goodput_rate_reaches_the_bound() throws Exception {
        tests(SustainsFourRequestsPerSecond.class)
                .assertStatistics(stats -> stats.started(1).succeeded(1));

        SweepResult result = SustainsFourRequestsPerSecond.captured;
        assertThat(result.curve()).extracting(SweepPoint::offeredRate).startsWith(5.0);
        // A finite run a little past capacity still passes until its queue outgrows the 200 ms of TTFT slack:
        // up to capacity x 0.2 s / (0.9 x 3 s measured) = 0.46 req/s above it.
        assertThat(result.maxGoodput().rate()).isBetween(SATURATION - 1, SATURATION + 0.46);
        assertThat(result.maxGoodput().converged()).isTrue();
        Path directory = reports.resolve("SustainsFourRequestsPerSecond").resolve("sweep");
        assertThat(Files.readString(directory.resolve(Reports.SWEEP_CSV_FILE)).lines())
                .hasSize(result.points().size() + 1);
        assertThat(directory.resolve(Reports.SWEEP_HTML_FILE)).isRegularFile();
        assertThat(directory.resolve("run-01").resolve(Reports.HTML_FILE)).isRegularFile();
        assertThat(Files.readString(reports.resolve(ReportIndex.FILE)))
                .contains("SustainsFourRequestsPerSecond/sweep/sweep.html", "PASSED");
    }

    @GoodputTest
    @SimulatedServer(preset = "single-slot")
    static class NeedsTwentyRequestsPerSecond {
        static SweepResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @Slo(metric = TTFT, percentile = 90, atMost = 300)
        @LoadSweep(
                rates = {4, 12},
                runSeconds = 4,
                warmupSeconds = 1,
                drainSeconds = 2)
        @MaxGoodputRate(atLeast = 20)
        void sweep(SweepResult result) {
            captured = result;
        }
    }

    @Test
    void should_fail_with_the_max_goodput_rate_every_objective_at_the_failing_rate_and_the_runs() throws Exception {
        Events events = tests(NeedsTwentyRequestsPerSecond.class);
        events.assertStatistics(stats -> stats.started(1).failed(1));

        SweepResult result = NeedsTwentyRequestsPerSecond.captured;
        SweepPoint failing = result.curve().get(1);
        Throwable failure = events.failed()
                .list()
                .get(0)
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
        System.out.println(failure.getMessage());
        assertThat(failure.getMessage())
                .startsWith("NeedsTwentyRequestsPerSecond.sweep(): max goodput rate 4.00 req/s is below the required"
                        + " 20.00 req/s\n  " + result.maxGoodput().describe() + "\n")
                .contains("at 12.00 req/s offered, SLO attainment ")
                .contains("  " + failing.result().verdicts().get(0).describe() + "\n")
                .contains("runs: grid 4.00 req/s -> ")
                .contains("against @SimulatedServer on NeedsTwentyRequestsPerSecond (preset single-slot")
                .endsWith("reports: "
                        + reports.resolve("NeedsTwentyRequestsPerSecond").resolve("sweep"));
        assertThat(Files.readString(reports.resolve(ReportIndex.FILE))).contains("FAILED");
    }

    @GoodputTest
    @SimulatedServer(preset = "single-slot")
    static class OneQuickRate {
        static SweepResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 2)
        @LoadSweep(
                rates = {2},
                runSeconds = 1,
                drainSeconds = 1)
        void sweep(SweepResult result) {
            captured = result;
        }
    }

    @Test
    void should_run_every_point_with_the_gates_client_settings_because_a_sweep_repeats_one_base_run() {
        EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.send-lag-limit-ms", "123")
                .configurationParameter("goodput.load.scale", "2")
                .selectors(selectClass(OneQuickRate.class))
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).succeeded(1));

        SweepPoint point = OneQuickRate.captured.points().get(0);
        assertThat(point.result().spec().sendLagLimit()).isEqualTo(java.time.Duration.ofMillis(123));
        assertThat(point.result().spec().load().limits().duration()).hasValue(java.time.Duration.ofSeconds(2));
        assertThat(point.result().spec().load().arrivals()).isEqualTo(dev.goodput.core.load.Load.constantRate(2));
    }
}
