package dev.goodput.core.servermetrics.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScrapeLogTest {

    private static final long SECOND = 1_000_000_000L;

    private static ScrapeReading reading(Map<ServerSignal, Double> values) {
        return new ScrapeReading(values, Map.of(), List.of());
    }

    @Test
    void should_keep_a_gauges_mean_and_peak_over_every_scrape() {
        ScrapeLog log = new ScrapeLog(List.of("a"), 100);
        double[] usage = {0.1, 0.5, 0.95, 0.4};
        for (int i = 0; i < usage.length; i++) {
            log.record(i * SECOND, Map.of("a", reading(Map.of(ServerSignal.KV_CACHE_USAGE, usage[i]))));
        }

        ScrapeLog.Track track = log.track(ServerSignal.KV_CACHE_USAGE);
        assertThat(track.mean()).isCloseTo(0.4875, within(1e-12));
        assertThat(track.max()).isEqualTo(0.95);
        assertThat(track.values()).containsExactly(usage);
        assertThat(log.scrapes()).isEqualTo(4);
    }

    @Test
    void should_count_a_counters_increase_across_a_server_restart() {
        ScrapeLog log = new ScrapeLog(List.of("a"), 100);
        double[] preemptions = {10, 12, 15, 2, 5};
        for (int i = 0; i < preemptions.length; i++) {
            log.record(i * SECOND, Map.of("a", reading(Map.of(ServerSignal.PREEMPTIONS, preemptions[i]))));
        }

        // 2 + 3, then the restart's 2 (the counter started again from 0), then 3.
        assertThat(log.track(ServerSignal.PREEMPTIONS).increase()).isEqualTo(10);
    }

    @Test
    void should_integrate_power_into_energy_by_the_trapezoid_rule() {
        ScrapeLog log = new ScrapeLog(List.of("dcgm"), 100);
        log.record(0, Map.of("dcgm", reading(Map.of(ServerSignal.GPU_POWER, 100.0))));
        log.record(2 * SECOND, Map.of("dcgm", reading(Map.of(ServerSignal.GPU_POWER, 300.0))));
        log.record(3 * SECOND, Map.of("dcgm", reading(Map.of(ServerSignal.GPU_POWER, 300.0))));

        assertThat(log.track(ServerSignal.GPU_POWER).integral()).isCloseTo(400 + 300, within(1e-9));
    }

    @Test
    void should_bound_the_points_and_keep_the_figures_over_every_scrape() {
        ScrapeLog log = new ScrapeLog(List.of("a"), 8);
        for (int i = 0; i < 1000; i++) {
            log.record(i * SECOND, Map.of("a", reading(Map.of(ServerSignal.RUNNING_REQUESTS, (double) i))));
        }

        ScrapeLog.Track track = log.track(ServerSignal.RUNNING_REQUESTS);
        assertThat(track.times()).hasSizeLessThanOrEqualTo(8).hasSizeGreaterThanOrEqualTo(4);
        assertThat(track.times()).isSorted();
        assertThat(track.times()[0]).isZero();
        assertThat(track.max()).isEqualTo(999);
        assertThat(track.mean()).isEqualTo(499.5);
        assertThat(track.count()).isEqualTo(1000);
    }

    @Test
    void should_carry_an_endpoints_last_reading_over_a_tick_it_missed_and_sum_across_endpoints() {
        ScrapeLog log = new ScrapeLog(List.of("gpu0", "gpu1"), 100);
        Map<String, ScrapeReading> both = new LinkedHashMap<>();
        both.put("gpu0", reading(Map.of(ServerSignal.GPU_POWER, 200.0)));
        both.put("gpu1", reading(Map.of(ServerSignal.GPU_POWER, 300.0)));
        log.record(0, both);
        log.record(SECOND, Map.of("gpu0", reading(Map.of(ServerSignal.GPU_POWER, 250.0))));
        log.failed("gpu1", "no answer within 1000 ms");

        // Power sums over GPUs; gpu1's 300 W stands in for the tick it missed.
        assertThat(log.track(ServerSignal.GPU_POWER).values()).containsExactly(500.0, 550.0);
        assertThat(log.failedScrapes()).isEqualTo(1);
        assertThat(log.failureReasons()).containsExactly("gpu1: no answer within 1000 ms");
    }

    @Test
    void should_average_fractions_across_endpoints() {
        ScrapeLog log = new ScrapeLog(List.of("gpu0", "gpu1"), 100);
        Map<String, ScrapeReading> both = new LinkedHashMap<>();
        both.put("gpu0", reading(Map.of(ServerSignal.GPU_UTILIZATION, 0.2)));
        both.put("gpu1", reading(Map.of(ServerSignal.GPU_UTILIZATION, 0.6)));
        log.record(0, both);

        assertThat(log.track(ServerSignal.GPU_UTILIZATION).mean()).isCloseTo(0.4, within(1e-12));
    }

    @Test
    void should_keep_unknown_series_raw_up_to_a_bound() {
        ScrapeLog log = new ScrapeLog(List.of("a"), 100);
        for (int tick = 0; tick < 3; tick++) {
            List<Sample> unknown = new java.util.ArrayList<>();
            for (int i = 0; i < ScrapeLog.MAX_UNMAPPED + 5; i++) {
                unknown.add(new Sample("custom_metric", Map.of("i", Integer.toString(i)), tick * 10.0 + i));
            }
            log.record(tick * SECOND, Map.of("a", new ScrapeReading(Map.of(), Map.of(), unknown)));
        }

        assertThat(log.unmapped()).hasSize(ScrapeLog.MAX_UNMAPPED);
        ScrapeLog.Raw first = log.unmapped().get(0);
        assertThat(first.first()).isEqualTo(0);
        assertThat(first.last()).isEqualTo(20);
        assertThat(first.min()).isEqualTo(0);
        assertThat(first.max()).isEqualTo(20);
        assertThat(log.droppedUnmapped()).isEqualTo(15);
    }
}
