package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WindowRateTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void should_be_the_events_over_the_window_counting_late_events_in_the_last_bin() {
        long[] at = {0, SECOND, 2 * SECOND, 11 * SECOND};
        double[] weights = {1, 1, 1, 1};

        WindowRate rate = WindowRate.of(at, weights, 0, 10 * SECOND, 0.95);

        assertThat(rate.rate()).isCloseTo(0.4, within(1e-12));
    }

    @Test
    void should_cover_a_steady_poisson_rate_and_widen_for_a_rate_that_changed_midway() {
        SplittableRandom random = new SplittableRandom(11);
        long[] steady = poisson(random, 20, 0, 60 * SECOND);
        WindowRate steadyRate = WindowRate.of(steady, ones(steady.length), 0, 60 * SECOND, 0.95);
        assertThat(steadyRate.interval().lower()).isLessThan(20);
        assertThat(steadyRate.interval().upper()).isGreaterThan(20);

        // 30 s at 10/s then 30 s at 30/s: the same mean, but the bins are not independent samples of it.
        long[] first = poisson(random, 10, 0, 30 * SECOND);
        long[] second = poisson(random, 30, 30 * SECOND, 60 * SECOND);
        long[] shifted = concat(first, second);
        WindowRate shiftedRate = WindowRate.of(shifted, ones(shifted.length), 0, 60 * SECOND, 0.95);
        double steadyWidth =
                steadyRate.interval().upper() - steadyRate.interval().lower();
        double shiftedWidth =
                shiftedRate.interval().upper() - shiftedRate.interval().lower();
        assertThat(shiftedWidth).isGreaterThan(3 * steadyWidth);
        assertThat(shiftedRate.effectiveBins()).isLessThan(WindowRate.BINS);
    }

    private static long[] poisson(SplittableRandom random, double perSecond, long from, long to) {
        long[] events = new long[(int) (perSecond * (to - from) / SECOND * 2 + 100)];
        int count = 0;
        double at = from;
        while (true) {
            at += -Math.log(1 - random.nextDouble()) / perSecond * SECOND;
            if (at >= to) {
                break;
            }
            events[count++] = (long) at;
        }
        return Arrays.copyOf(events, count);
    }

    private static long[] concat(long[] a, long[] b) {
        long[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static double[] ones(int n) {
        double[] ones = new double[n];
        Arrays.fill(ones, 1);
        return ones;
    }
}
