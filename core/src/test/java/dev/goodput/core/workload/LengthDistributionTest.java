package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Checked statistically with a fixed seed over 20,000 draws; tolerances are several standard errors. */
class LengthDistributionTest {

    private static final int DRAWS = 20_000;

    private static int[] draw(LengthDistribution distribution) {
        SplittableRandom random = new SplittableRandom(42);
        int[] values = new int[DRAWS];
        for (int i = 0; i < DRAWS; i++) {
            values[i] = distribution.sample(random);
        }
        Arrays.sort(values);
        return values;
    }

    @Test
    void should_draw_uniform_lengths_within_the_range_ratio_like_vllm() {
        int[] values = draw(LengthDistribution.uniform(1000, 0.25));
        assertThat(values[0]).isEqualTo(750);
        assertThat(values[DRAWS - 1]).isEqualTo(1250);
        assertThat(Arrays.stream(values).average().orElseThrow()).isCloseTo(1000, within(3.0));
    }

    @Test
    void should_draw_normal_lengths_with_the_given_mean_and_spread_inside_the_bounds() {
        int[] values = draw(LengthDistribution.normal(500, 50, 1, 10_000));
        double mean = Arrays.stream(values).average().orElseThrow();
        double variance =
                Arrays.stream(values).mapToDouble(v -> (v - mean) * (v - mean)).sum() / (DRAWS - 1);
        assertThat(mean).isCloseTo(500, within(1.5));
        assertThat(Math.sqrt(variance)).isCloseTo(50, within(1.5));
        int[] bounded = draw(LengthDistribution.normal(500, 50, 480, 520));
        assertThat(bounded[0]).isEqualTo(480);
        assertThat(bounded[DRAWS - 1]).isEqualTo(520);
    }

    @Test
    void should_draw_log_normal_lengths_around_the_median() {
        int[] values = draw(LengthDistribution.logNormal(200, 0.8, 4, 4096));
        assertThat((double) values[DRAWS / 2]).isCloseTo(200, within(6.0));
        // The 84th percentile of a log-normal is the median times e^sigma.
        assertThat((double) values[(int) (DRAWS * 0.8413)]).isCloseTo(200 * Math.exp(0.8), within(15.0));
        assertThat(values[0]).isGreaterThanOrEqualTo(4);
    }

    @Test
    void should_draw_empirical_lengths_in_proportion_to_their_weights() {
        int[] values = draw(LengthDistribution.empirical(Map.of(10, 1, 100, 3, 1000, 0)));
        long tens = Arrays.stream(values).filter(v -> v == 10).count();
        assertThat(tens / (double) DRAWS).isCloseTo(0.25, within(0.01));
        assertThat(values).doesNotContain(1000);
    }

    @Test
    void should_name_the_setting_of_a_bad_distribution() {
        assertThatThrownBy(() -> LengthDistribution.uniform(100, 1.5))
                .hasMessage("rangeRatio = 1.5 must be at least 0 and below 1");
        assertThatThrownBy(() -> LengthDistribution.normal(10, 1, 20, 10))
                .hasMessage("max = 10 must be at least min (20)");
        assertThatThrownBy(() -> LengthDistribution.empirical(Map.of(0, 1)))
                .hasMessage("empirical length = 0 must be at least 1");
        assertThat(LengthDistribution.uniform(100, 0.5).describe())
                .containsEntry("type", "uniform")
                .containsEntry("min", 50)
                .containsEntry("max", 150);
    }
}
