package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.result.SteadyState;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Detection on synthetic runs whose shape is known: arrivals, dispatches and ends built by hand, no clock. */
class SteadyStateDetectorTest {

    private static final long MS = 1_000_000;
    private static final long S = 1_000_000_000;

    /** Poisson arrivals at {@code rate}/s for {@code seconds}, each request taking {@code latencyNanos[i]}. */
    private static long[][] openLoop(double rate, double seconds, Random random, LongOfIndex latency) {
        int n = (int) (rate * seconds);
        long[] intended = new long[n];
        long[] ended = new long[n];
        double t = 0;
        for (int i = 0; i < n; i++) {
            t += -Math.log(1 - random.nextDouble()) / rate;
            intended[i] = (long) (t * S);
            ended[i] = intended[i] + latency.at(i);
        }
        return new long[][] {intended, intended.clone(), ended};
    }

    interface LongOfIndex {
        long at(int index);
    }

    @Test
    void should_find_the_window_between_the_ramp_up_and_the_drain() {
        // 100/s for 20 s, each request 2 s: in flight climbs to about 200 over the first 2 s and drains over the
        // last 2 s after the arrivals stop.
        Random random = new Random(11);
        long[][] run = openLoop(100, 20, random, i -> 2 * S + (long) (random.nextGaussian() * 100 * MS));

        SteadyState steady = SteadyStateDetector.detect(run[0], run[1], run[2]);

        assertThat(steady.found()).as(steady.reason()).isTrue();
        assertThat(steady.startNanos()).isBetween(1_600 * MS, 4 * S);
        assertThat(steady.requests())
                .isEqualTo(
                        java.util.Arrays.stream(run[0]).filter(steady::contains).count());
        long lastArrival = run[0][run[0].length - 1];
        assertThat(steady.endNanos()).isBetween(lastArrival - 4 * S, lastArrival + 300 * MS);
        assertThat(steady.meanInFlight()).isCloseTo(200, within(20.0));
        assertThat(steady.offeredRate()).isCloseTo(100, within(10.0));
        assertThat(steady.achievedRate()).isCloseTo(steady.offeredRate(), within(10.0));
        assertThat(steady.measuredRequests()).isEqualTo(2_000);
        assertThat(steady.share()).isBetween(0.75, 0.95);
    }

    @Test
    void should_keep_nearly_all_of_a_noisy_but_stationary_run() {
        // Latencies with strongly correlated noise (AR(1), phi = 0.9 from one request to the next), short against
        // the run, so there is almost no ramp to cut.
        Random random = new Random(5);
        double[] noise = {0};
        long[][] run = openLoop(50, 30, random, i -> {
            noise[0] = 0.9 * noise[0] + random.nextGaussian() * 0.3;
            return (long) (40 * MS * Math.exp(noise[0]));
        });

        SteadyState steady = SteadyStateDetector.detect(run[0], run[1], run[2]);

        assertThat(steady.found()).as(steady.reason()).isTrue();
        assertThat(steady.seconds()).isGreaterThan(20);
        assertThat(steady.offeredRate()).isCloseTo(50, within(5.0));
    }

    @Test
    void should_report_no_steady_state_when_the_queue_keeps_growing() {
        // An overloaded open loop: 100/s offered to a single FIFO server that completes 80/s.
        Random random = new Random(3);
        long[][] run = openLoop(100, 20, random, i -> 0);
        long free = 0;
        for (int i = 0; i < run[0].length; i++) {
            free = Math.max(run[0][i], free) + 12_500_000L;
            run[2][i] = free;
        }

        SteadyState steady = SteadyStateDetector.detect(run[0], run[1], run[2]);

        assertThat(steady.found()).isFalse();
        assertThat(steady.reason()).contains("did not keep up with the offered rate");
        assertThat(steady.share()).isZero();
        assertThat(steady.offeredRate()).isNaN();
    }

    @Test
    void should_report_no_steady_state_for_a_run_too_short_to_tell() {
        Random random = new Random(4);
        long[][] run = openLoop(20, 3, random, i -> 100 * MS);

        SteadyState steady = SteadyStateDetector.detect(run[0], run[1], run[2]);

        assertThat(steady.found()).isFalse();
        assertThat(steady.reason())
                .isEqualTo("too few measured requests to tell a ramp from noise (60, needs at" + " least 100)");
    }

    @Test
    void should_size_the_bins_to_the_run_not_to_the_clock() {
        // 400 requests in 2 s: a fixed 1 s bin would leave two bins; the series has 40 batches of 50 ms.
        Random random = new Random(6);
        long[][] run = openLoop(200, 2, random, i -> 20 * MS);

        LoadSeries series = LoadSeries.of(run[0], run[1], run[2]);
        SteadyState steady = SteadyStateDetector.detect(run[0], run[1], run[2]);

        assertThat(series.batches()).isEqualTo(40);
        assertThat(series.batchNanos()).isBetween(45.0 * MS, 55.0 * MS);
        assertThat(steady.found()).as(steady.reason()).isTrue();
    }

    @Test
    void should_leave_unsent_requests_out_of_the_in_flight_count_and_the_drain_out_of_the_series() {
        // The second request was never sent; the third ends after the last intended start, in the drain.
        long[] intended = {0, 10 * MS, 100 * MS};
        long[] dispatched = {0, dev.goodput.core.record.RequestRecord.ABSENT, 90 * MS};
        long[] ended = {50 * MS, 20 * MS, 300 * MS};

        LoadSeries series = LoadSeries.of(intended, dispatched, ended);

        double busy = 0;
        for (double value : series.inFlight()) {
            busy += value * series.batchNanos();
        }
        assertThat(busy).isCloseTo(50.0 * MS + 10.0 * MS, within(1.0));
        assertThat(series.arrivals()).hasSize(10).containsExactly(1, 1, 0, 0, 0, 0, 0, 0, 0, 1);
        assertThat(java.util.Arrays.stream(series.completions()).sum()).isEqualTo(2);
    }
}
