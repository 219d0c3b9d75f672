package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PauseMeterTest {

    private static final long MS = 1_000_000;

    @Test
    void should_put_back_the_wake_ups_a_long_pause_swallowed() {
        Histogram histogram = new Histogram(3);
        PauseMeter.record(histogram, 5 * MS + MS / 2);
        // 5.5 ms late with a 1 ms interval: the wake-ups due at 4.5, 3.5, 2.5 and 1.5 ms before it were missed too.
        assertThat(histogram.getTotalCount()).isEqualTo(5);
        assertThat(histogram.getMaxValue()).isEqualTo(histogram.highestEquivalentValue(5 * MS + MS / 2));
        assertThat(histogram.getMinValue()).isEqualTo(histogram.lowestEquivalentValue(MS + MS / 2));
    }

    @Test
    void should_count_an_early_or_short_wake_up_once_at_its_lateness() {
        Histogram histogram = new Histogram(3);
        PauseMeter.record(histogram, -20_000); // parkNanos may return early: no negative lateness
        PauseMeter.record(histogram, 80_000);
        assertThat(histogram.getTotalCount()).isEqualTo(2);
        assertThat(histogram.getMinValue()).isZero();
    }

    @Test
    void should_measure_until_stopped_on_a_thread_of_its_own() throws InterruptedException {
        PauseMeter meter = new PauseMeter().start();
        Thread.sleep(50);
        Histogram pauses = meter.stop();
        // About 50 wake-ups; any number above zero shows the thread ran and handed its record over.
        assertThat(pauses.getTotalCount()).isPositive();
        long count = pauses.getTotalCount();
        Thread.sleep(20);
        assertThat(pauses.getTotalCount()).as("nothing recorded after stop").isEqualTo(count);
    }
}
