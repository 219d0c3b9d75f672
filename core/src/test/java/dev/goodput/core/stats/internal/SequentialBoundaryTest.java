package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SequentialBoundaryTest {

    @Test
    void should_give_pocock_constants_for_equally_spaced_looks() {
        // Jennison and Turnbull (2000), table 2.1: two-sided 5 %, K = 2, 3, 5 equally spaced looks.
        assertThat(SequentialBoundary.boundary(new long[] {1, 2}, 0.95)).isCloseTo(2.178, within(0.015));
        assertThat(SequentialBoundary.boundary(new long[] {1, 2, 3}, 0.95)).isCloseTo(2.289, within(0.015));
        assertThat(SequentialBoundary.boundary(new long[] {1, 2, 3, 4, 5}, 0.95))
                .isCloseTo(2.413, within(0.015));
    }

    @Test
    void should_keep_one_look_at_the_run_confidence_and_widen_each_of_several() {
        assertThat(SequentialBoundary.lookConfidence(new long[] {500}, 0.95)).isEqualTo(0.95);
        double doubling = SequentialBoundary.lookConfidence(new long[] {200, 400, 800, 1600, 3200}, 0.95);
        assertThat(doubling).isBetween(0.98, 0.99);
        assertThat(SequentialBoundary.lookConfidence(new long[] {200, 400, 800, 1600, 3200}, 0.95))
                .isEqualTo(doubling);
    }

    @Test
    void should_agree_with_the_normal_distribution_function() {
        assertThat(SequentialBoundary.normalCdf(1.959964)).isCloseTo(0.975, within(1e-6));
        assertThat(SequentialBoundary.normalCdf(-2.575829)).isCloseTo(0.005, within(1e-6));
        assertThat(SequentialBoundary.normalCdf(0)).isCloseTo(0.5, within(1e-7));
    }
}
