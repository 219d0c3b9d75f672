package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.stats.ConfidenceInterval;
import org.junit.jupiter.api.Test;

class MeanIntervalTest {

    @Test
    void should_use_the_sample_standard_deviation() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squared deviations 32, so s = sqrt(32 / 7) and the half-width is
        // 1.959963984540054 * sqrt(32 / 7) / sqrt(8) = 1.959963984540054 * 2 / sqrt(7) ≈ 1.4815935090674934.
        ConfidenceInterval interval = MeanInterval.of(ExactDistribution.of(2, 4, 4, 4, 5, 5, 7, 9), 0.95);
        assertThat(interval.lower()).isCloseTo(3.518406490932507, within(1e-12));
        assertThat(interval.upper()).isCloseTo(6.481593509067493, within(1e-12));
        assertThat(interval.confidence()).isEqualTo(0.95);
        assertThat(interval.method()).isEqualTo("normal approximation");
    }

    @Test
    void should_collapse_on_identical_samples() {
        ConfidenceInterval interval = MeanInterval.of(ExactDistribution.of(3, 3, 3), 0.95);
        assertThat(interval.lower()).isEqualTo(3.0);
        assertThat(interval.upper()).isEqualTo(3.0);
    }

    @Test
    void should_have_no_bounds_below_two_samples() {
        for (ExactDistribution samples : new ExactDistribution[] {ExactDistribution.of(), ExactDistribution.of(7)}) {
            ConfidenceInterval interval = MeanInterval.of(samples, 0.95);
            assertThat(interval.hasLower()).isFalse();
            assertThat(interval.hasUpper()).isFalse();
        }
    }
}
