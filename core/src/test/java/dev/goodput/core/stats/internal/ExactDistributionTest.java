package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.stats.Summary;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExactDistributionTest {

    @Test
    void should_match_numpy_on_its_documented_example() {
        // np.percentile([1, 2, 3, 4], 25) == 1.75: h = 3 * 0.25 = 0.75, so 1 + 0.75 * (2 - 1).
        assertThat(ExactDistribution.of(4, 3, 2, 1).percentile(25)).isEqualTo(1.75);
    }

    @ParameterizedTest(name = "p{0} of 15, 20, 35, 40, 50 is {1}")
    @CsvSource({
        // h = 4 * p / 100, then x[floor(h)] + frac(h) * (x[floor(h) + 1] - x[floor(h)])
        "0,    15", // h = 0: the minimum
        "25,   20", // h = 1: exactly x[1]
        "40,   29", // h = 1.6: 20 + 0.6 * 15
        "50,   35", // h = 2: exactly x[2]
        "90,   46", // h = 3.6: 40 + 0.6 * 10
        "99,   49.6", // h = 3.96: 40 + 0.96 * 10 (NumPy 49.6)
        "99.9, 49.96", // h = 3.996: 40 + 0.996 * 10 (NumPy prints 49.96000000000001)
        "100,  50" // h = 4: the maximum
    })
    void should_interpolate_linearly_between_closest_ranks(double percentile, double expected) {
        assertThat(ExactDistribution.of(50, 15, 40, 20, 35).percentile(percentile))
                .isEqualTo(expected);
    }

    @Test
    void should_place_a_decimal_percentile_exactly_where_binary_arithmetic_would_drift() {
        // 0, 1, ..., 1000: h = 1000 * 99.9 / 100 = 999 exactly, so the value is 999. NumPy computes
        // 99.9 / 100 = 0.9990000000000001 first and prints 999.0000000000001.
        double[] values = IntStream.rangeClosed(0, 1000).asDoubleStream().toArray();
        assertThat(ExactDistribution.of(values).percentile(99.9)).isEqualTo(999.0);
    }

    @Test
    void should_interpolate_a_decimal_percentile_between_ranks() {
        // 1, 2, ..., 2000: h = 1999 * 0.999 = 1997.001, so 1998 + 0.001 * (1999 - 1998) = 1998.001.
        double[] values = IntStream.rangeClosed(1, 2000).asDoubleStream().toArray();
        assertThat(ExactDistribution.of(values).percentile(99.9)).isCloseTo(1998.001, within(1e-9));
    }

    @Test
    void should_give_the_only_sample_for_every_percentile() {
        ExactDistribution one = ExactDistribution.of(42);
        for (double percentile : new double[] {0, 0.1, 50, 99, 99.9, 100}) {
            assertThat(one.percentile(percentile)).isEqualTo(42.0);
        }
        assertThat(one.standardDeviation()).isEqualTo(0.0);
    }

    @Test
    void should_not_interpolate_between_ties() {
        // 7, 7, 7, 9: h = 1.5 falls between two 7s.
        assertThat(ExactDistribution.of(7, 9, 7, 7).percentile(50)).isEqualTo(7.0);
        // 1, 3, 3, 3, 10: h = 0.4 gives 1 + 0.4 * 2; h = 2.4 lies among the 3s; h = 3.6 gives 3 + 0.6 * 7.
        ExactDistribution tied = ExactDistribution.of(3, 10, 1, 3, 3);
        assertThat(tied.percentile(10)).isCloseTo(1.8, within(1e-12));
        assertThat(tied.percentile(60)).isEqualTo(3.0);
        assertThat(tied.percentile(90)).isCloseTo(7.2, within(1e-12));
    }

    @Test
    void should_compute_the_population_standard_deviation() {
        // Mean 40 / 8 = 5; squared deviations 9 + 1 + 1 + 1 + 0 + 0 + 4 + 16 = 32; 32 / 8 = 4; sqrt = 2.
        ExactDistribution samples = ExactDistribution.of(2, 4, 4, 4, 5, 5, 7, 9);
        assertThat(samples.mean()).isEqualTo(5.0);
        assertThat(samples.standardDeviation()).isEqualTo(2.0);
    }

    @Test
    void should_keep_the_standard_deviation_of_large_values_with_small_spread() {
        // 1e9 + {4, 7, 13, 16}: mean 1e9 + 10, deviations -6, -3, 3, 6, variance 90 / 4 = 22.5. The one-pass
        // formula E[x²] - E[x]² loses every digit here.
        ExactDistribution samples = ExactDistribution.of(1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16);
        assertThat(samples.mean()).isEqualTo(1e9 + 10);
        assertThat(samples.standardDeviation()).isCloseTo(Math.sqrt(22.5), within(1e-12));
    }

    @Test
    void should_give_extremes_and_ranks_in_ascending_order() {
        ExactDistribution samples = ExactDistribution.of(30, 10, 20);
        assertThat(samples.count()).isEqualTo(3);
        assertThat(samples.min()).isEqualTo(10.0);
        assertThat(samples.max()).isEqualTo(30.0);
        assertThat(samples.valueAtRank(1)).isEqualTo(10.0);
        assertThat(samples.valueAtRank(2)).isEqualTo(20.0);
        assertThat(samples.valueAtRank(3)).isEqualTo(30.0);
    }

    @Test
    void should_reject_a_rank_outside_the_samples() {
        ExactDistribution samples = ExactDistribution.of(30, 10, 20);
        assertThatThrownBy(() -> samples.valueAtRank(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rank 0 is not between 1 and 3");
        assertThatThrownBy(() -> samples.valueAtRank(4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rank 4 is not between 1 and 3");
    }

    @Test
    void should_reject_nan_naming_its_index() {
        assertThatThrownBy(() -> ExactDistribution.of(1, 2, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("values[2] is NaN; samples must be finite numbers");
        assertThatThrownBy(() -> ExactDistribution.of(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("values[0] is Infinity; samples must be finite numbers");
    }

    @Test
    void should_reject_a_percentile_outside_0_to_100() {
        ExactDistribution samples = ExactDistribution.of(1, 2);
        assertThatThrownBy(() -> samples.percentile(100.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("percentile must be between 0 and 100, was 100.5");
        assertThatThrownBy(() -> samples.percentile(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> samples.summarize(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_copy_its_input() {
        double[] values = {3, 1, 2};
        ExactDistribution samples = ExactDistribution.of(values);
        values[0] = 100;
        assertThat(values).containsExactly(100, 1, 2);
        assertThat(samples.max()).isEqualTo(3.0);
    }

    @Test
    void should_treat_longs_like_doubles() {
        ExactDistribution longs = ExactDistribution.ofLongs(4_000_000_000L, 1_000_000_000L, 2_000_000_000L);
        ExactDistribution doubles = ExactDistribution.of(4e9, 1e9, 2e9);
        assertThat(longs.summarize(50, 90)).isEqualTo(doubles.summarize(50, 90));
        assertThat(longs.percentile(90)).isEqualTo(3.6e9);
    }

    @Test
    void should_summarize_with_the_requested_percentiles() {
        Summary summary = ExactDistribution.of(2, 4, 4, 4, 5, 5, 7, 9).summarize(50, 90, 99.9);
        assertThat(summary.count()).isEqualTo(8);
        assertThat(summary.mean()).isEqualTo(5.0);
        assertThat(summary.standardDeviation()).isEqualTo(2.0);
        assertThat(summary.min()).isEqualTo(2.0);
        assertThat(summary.max()).isEqualTo(9.0);
        assertThat(summary.percentiles()).containsOnlyKeys(50.0, 90.0, 99.9);
        // h = 3.5 gives 4 + 0.5 * (5 - 4); h = 6.3 gives 7 + 0.3 * (9 - 7); h = 6.993 gives 7 + 0.993 * 2.
        assertThat(summary.percentile(50)).isEqualTo(4.5);
        assertThat(summary.percentile(90)).isCloseTo(7.6, within(1e-12));
        assertThat(summary.percentile(99.9)).isCloseTo(8.986, within(1e-12));
    }

    @Test
    void should_summarize_no_samples_as_nan_with_the_requested_keys() {
        ExactDistribution empty = ExactDistribution.of();
        Summary summary = empty.summarize(50, 99);
        assertThat(summary.count()).isZero();
        assertThat(summary.mean()).isNaN();
        assertThat(summary.standardDeviation()).isNaN();
        assertThat(summary.min()).isNaN();
        assertThat(summary.max()).isNaN();
        assertThat(summary.percentiles()).containsOnlyKeys(50.0, 99.0);
        assertThat(summary.percentile(50)).isNaN();
        assertThat(summary.percentile(99)).isNaN();
        assertThat(empty.percentile(50)).isNaN();
    }
}
