package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Load;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {

    private static long[] gaps(Arrivals.AtRate profile, int count) {
        ArrivalSchedule schedule = new ArrivalSchedule(profile);
        long previous = schedule.next();
        assertThat(previous).isZero();
        long[] gaps = new long[count];
        for (int i = 0; i < count; i++) {
            long next = schedule.next();
            gaps[i] = next - previous;
            previous = next;
        }
        return gaps;
    }

    private static double mean(long[] values) {
        return Arrays.stream(values).average().orElseThrow();
    }

    private static double coefficientOfVariation(long[] values) {
        double mean = mean(values);
        double variance =
                Arrays.stream(values).mapToDouble(v -> (v - mean) * (v - mean)).sum() / values.length;
        return Math.sqrt(variance) / mean;
    }

    @Test
    void should_space_constant_arrivals_exactly() {
        assertThat(gaps(Load.constantRate(4), 5)).containsOnly(250_000_000L);
    }

    @Test
    void should_draw_poisson_gaps_with_the_mean_rate_and_a_coefficient_of_variation_of_one() {
        long[] gaps = gaps(Load.poisson(8).seed(42), 200_000);
        assertThat(mean(gaps)).isCloseTo(125_000_000.0, within(125_000_000.0 * 0.01));
        assertThat(coefficientOfVariation(gaps)).isCloseTo(1.0, within(0.02));
    }

    @Test
    void should_draw_gamma_gaps_whose_variation_follows_the_burstiness() {
        long[] bursty = gaps(Load.gamma(8, 0.25).seed(7), 200_000);
        assertThat(mean(bursty)).isCloseTo(125_000_000.0, within(125_000_000.0 * 0.02));
        assertThat(coefficientOfVariation(bursty)).isCloseTo(2.0, within(0.06));

        long[] regular = gaps(Load.gamma(8, 4).seed(7), 200_000);
        assertThat(mean(regular)).isCloseTo(125_000_000.0, within(125_000_000.0 * 0.01));
        assertThat(coefficientOfVariation(regular)).isCloseTo(0.5, within(0.02));
    }

    @Test
    void should_repeat_a_schedule_for_the_same_seed_and_change_it_for_another() {
        assertThat(gaps(Load.poisson(8).seed(1), 100))
                .containsExactly(gaps(Load.poisson(8).seed(1), 100));
        assertThat(gaps(Load.poisson(8).seed(1), 100))
                .isNotEqualTo(gaps(Load.poisson(8).seed(2), 100));
    }
}
