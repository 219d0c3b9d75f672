package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class MserTest {

    @Test
    void should_drop_nothing_from_a_flat_series() {
        assertThat(Mser.truncation(new double[] {5, 5, 5, 5, 5, 5, 5, 5})).isZero();
    }

    @Test
    void should_cut_a_ramp_at_its_end() {
        Random random = new Random(1);
        double[] series = new double[100];
        for (int i = 0; i < series.length; i++) {
            series[i] = Math.min(i, 20) * 5 + random.nextGaussian() * 3;
        }

        assertThat(Mser.truncation(series)).isBetween(17, 24);
    }

    @Test
    void should_call_a_series_that_keeps_rising_unsettled() {
        Random random = new Random(2);
        double[] series = new double[100];
        for (int i = 0; i < series.length; i++) {
            series[i] = i + random.nextGaussian() * 5;
        }

        assertThat(Mser.truncation(series)).isEqualTo(Mser.UNSETTLED);
    }

    @Test
    void should_call_a_series_too_short_to_judge_unsettled() {
        assertThat(Mser.truncation(new double[] {1, 2, 3})).isEqualTo(Mser.UNSETTLED);
    }

    @Test
    void should_reverse_a_slice() {
        assertThat(Mser.reversed(new double[] {1, 2, 3, 4, 5}, 1, 4)).containsExactly(4, 3, 2);
    }
}
