package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.report.SweepCsvReport;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.sweep.SweepResult;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadSweep;
import dev.goodput.junit.MaxGoodputRate;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;

/**
 * A sweep as a test: the {@code tiny-test} simulated server (saturated at about 9.2 requests/s of 64 + 64 tokens)
 * at 4, 8 and 12 requests/s, then a search for the max goodput rate to 1 request/s. The test passes when at
 * least 90 % of requests meet both objectives up to 6 requests/s. The curve, the attainment and every run land in
 * {@code target/goodput/LoadSweepExample/max_goodput_rate_is_at_least_six_requests_per_second/sweep.html}.
 */
@GoodputTest
@SimulatedServer(preset = "tiny-test")
class LoadSweepExample {

    // tag::load-sweep[]
    @org.junit.jupiter.api.Test
    @Workload(inputTokens = 64, outputTokens = 64)
    @Slo(metric = Metric.TTFT, percentile = 90, atMost = 250)
    @Slo(metric = Metric.TPOT, percentile = 90, atMost = 50)
    @LoadSweep(
            rates = {4, 8, 12},
            runSeconds = 8,
            drainSeconds = 5,
            resolution = 1,
            maxSearchRuns = 2)
    @MaxGoodputRate(atLeast = 6)
    void max_goodput_rate_is_at_least_six_requests_per_second(SweepResult sweep) {
        System.out.print(SweepCsvReport.format(sweep));
        assertThat(sweep.kneePoint()).isPresent();
    }
    // end::load-sweep[]
}
