package dev.goodput.core.sweep.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The over-saturation detector on scripted in-flight counts, sampled every 250 ms on a virtual clock. */
class OverSaturationDetectorTest {

    private static final long STEP = 250_000_000L;

    private static OverSaturationDetector detector(double offeredRate) {
        return new OverSaturationDetector(offeredRate, SweepRunner.SATURATION_WINDOW, 1_000_000_000L);
    }

    @Test
    void should_fire_when_the_requests_in_flight_keep_growing_at_a_good_share_of_the_offered_rate() {
        OverSaturationDetector detector = detector(12);
        for (int i = 1; i <= 40; i++) {
            long elapsed = i * STEP;
            detector.observe(elapsed, i, 8 + Math.round(3 * elapsed / 1e9));
        }
        assertThat(detector.verdict())
                .hasValueSatisfying(reason -> assertThat(reason)
                        .startsWith("over-saturated: requests in flight grew from ")
                        .contains("at an offered 12.00 req/s"));
    }

    @Test
    void should_stay_quiet_when_the_requests_in_flight_fluctuate_around_a_steady_level() {
        OverSaturationDetector detector = detector(8);
        Random random = new Random(7);
        for (int i = 1; i <= 2000; i++) {
            detector.observe(i * STEP, i, 6 + random.nextInt(4));
            assertThat(detector.verdict()).as("sample %d", i).isEmpty();
        }
    }

    @Test
    void should_ignore_the_ramp_up_until_twice_the_first_request_latency() {
        OverSaturationDetector detector = detector(8);
        // In flight climbs from 0 to a steady 6 over the first 0.75 s (the first request ends at 0.75 s).
        for (int i = 1; i <= 30; i++) {
            long elapsed = i * STEP;
            long inFlight = Math.min(6, i * 2);
            detector.observe(elapsed, elapsed >= 750_000_000L ? i : 0, inFlight);
            assertThat(detector.verdict()).as("sample %d", i).isEmpty();
        }
    }

    @Test
    void should_not_fire_on_a_slow_drift_below_a_tenth_of_the_offered_rate() {
        OverSaturationDetector detector = detector(10);
        for (int i = 1; i <= 40; i++) {
            long elapsed = i * STEP;
            detector.observe(elapsed, i, 8 + Math.round(0.5 * elapsed / 1e9));
        }
        assertThat(detector.verdict()).isEmpty();
    }
}
