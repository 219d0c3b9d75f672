package dev.goodput.core.stats.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.stats.ConfidenceInterval;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class OrderStatisticIntervalTest {

    @ParameterizedTest(name = "n={0}, p={1}: ranks {2} .. {3}")
    @CsvSource({
        // Median of 10: F(1) = 11/1024 ≈ 0.0107 <= 0.025 < F(2) = 56/1024; F(7) = 968/1024 < 0.975 <=
        // F(8) = 1013/1024. Coverage (1013 - 11) / 1024 ≈ 0.9785.
        "10,   0.5,  2,   9",
        // Median of 20: F(5) = 21700/2^20 ≈ 0.0207 <= 0.025 < F(6) ≈ 0.0577; F(13) ≈ 0.9423 < 0.975 <= F(14) ≈ 0.9793.
        "20,   0.5,  6,   15",
        // Median of 100: F(39) ≈ 0.0176, F(40) ≈ 0.0284; F(59) ≈ 0.9716, F(60) ≈ 0.9824.
        "100,  0.5,  40,  61",
        // p90 of 100: F(83) ≈ 0.0206, F(84) ≈ 0.0399; F(94) ≈ 0.9424, F(95) ≈ 0.9763.
        "100,  0.9,  84,  96",
        // p99 of 100: F(96) ≈ 0.0184, F(97) ≈ 0.0794; P(B = 100) = 0.99^100 ≈ 0.366 > 0.025: no upper rank.
        "100,  0.99, 97,  0",
        // p99 of 1000: F(982) ≈ 0.0138, F(983) ≈ 0.0264; F(995) ≈ 0.9713, F(996) ≈ 0.9899.
        "1000, 0.99, 983, 997",
        // p1 of 100: F(0) = 0.99^100 ≈ 0.366 > 0.025: no lower rank; F(2) ≈ 0.9206, F(3) ≈ 0.9816.
        "100,  0.01, 0,   4",
        // Median of 5: F(0) = P(B = 5) = 1/32 ≈ 0.031 > 0.025: neither rank exists.
        "5,    0.5,  0,   0",
        // Median of 6: F(0) = P(B = 6) = 1/64 ≈ 0.016 <= 0.025: the extremes.
        "6,    0.5,  1,   6",
        // A single sample bounds nothing at 95% unless p is extreme: (1 - 0.99)^1 = 0.01 <= 0.025.
        "1,    0.99, 1,   0"
    })
    void should_find_the_ranks_by_hand(long n, double p, long lower, long upper) {
        OrderStatisticInterval ranks = OrderStatisticInterval.of(n, p, 0.95);
        assertThat(ranks.lowerRank()).isEqualTo(lower);
        assertThat(ranks.upperRank()).isEqualTo(upper);
        assertThat(ranks.hasLowerRank()).isEqualTo(lower != 0);
        assertThat(ranks.hasUpperRank()).isEqualTo(upper != 0);
    }

    @Test
    void should_need_368_samples_for_an_upper_bound_on_p99() {
        // The upper rank exists once P(B = n) = 0.99^n <= 0.025: 0.99^367 ≈ 0.025010 is just too much,
        // 0.99^368 ≈ 0.024760 is enough (ln 0.025 / ln 0.99 ≈ 367.04).
        assertThat(OrderStatisticInterval.minimumCountForUpperBound(0.99, 0.95)).hasValue(368);
        assertThat(OrderStatisticInterval.of(367, 0.99, 0.95).hasUpperRank()).isFalse();
        OrderStatisticInterval enough = OrderStatisticInterval.of(368, 0.99, 0.95);
        assertThat(enough.upperRank()).isEqualTo(368);
        assertThat(enough.lowerRank()).isEqualTo(360);
    }

    @ParameterizedTest(name = "p={0}: lower bound from n={1}, upper bound from n={2}")
    @CsvSource({
        "0.5,   6,   6", // 0.5^5 = 0.03125, 0.5^6 = 0.015625
        "0.9,   2,   36", // 0.1^1 = 0.1, 0.1^2 = 0.01; 0.9^35 ≈ 0.02503, 0.9^36 ≈ 0.02253
        "0.95,  2,   72", // 0.05^2 = 0.0025; 0.95^71 ≈ 0.02630, 0.95^72 ≈ 0.02499
        "0.99,  1,   368", // 0.01 <= 0.025 at once
        "0.999, 1,   3688", // ln 0.025 / ln 0.999 ≈ 3687.03
        "0.01,  368, 1",
        // 0.999999^3688877 ≈ 0.02500002 > 0.025 >= 0.999999^3688878 ≈ 0.02499999 (50-digit arithmetic): far
        // past a million samples, still exact because n p (1 - p) ≈ 3.7.
        "0.999999, 1, 3688878"
    })
    void should_pin_the_smallest_sample_counts_for_each_bound(double p, long lower, long upper) {
        assertThat(OrderStatisticInterval.minimumCountForLowerBound(p, 0.95)).isEqualTo(lower);
        assertThat(OrderStatisticInterval.minimumCountForUpperBound(p, 0.95)).hasValue(upper);
        // The ranks themselves agree: each bound is missing one sample earlier and present from there on.
        assertThat(OrderStatisticInterval.of(lower, p, 0.95).hasLowerRank()).isTrue();
        assertThat(OrderStatisticInterval.of(upper, p, 0.95).hasUpperRank()).isTrue();
        if (lower > 1) {
            assertThat(OrderStatisticInterval.of(lower - 1, p, 0.95).hasLowerRank())
                    .isFalse();
        }
        if (upper > 1) {
            assertThat(OrderStatisticInterval.of(upper - 1, p, 0.95).hasUpperRank())
                    .isFalse();
        }
    }

    @Test
    void should_stay_exact_for_an_extreme_percentile_of_ten_million_samples() {
        // p99.9999 of 10,000,000: F(9,999,982) ≈ 0.0143 <= 0.025 < F(9,999,983) ≈ 0.0270 and
        // P(B >= 9,999,996) ≈ 0.0293 > 0.025 >= P(B >= 9,999,997) ≈ 0.0103 (scipy.stats.binom).
        OrderStatisticInterval ranks = OrderStatisticInterval.of(10_000_000, 0.999999, 0.95);
        assertThat(ranks.lowerRank()).isEqualTo(9_999_983);
        assertThat(ranks.upperRank()).isEqualTo(9_999_997);
    }

    @Test
    void should_never_bound_the_maximum_from_above() {
        // The 100th percentile is the top of the support: every sample lies at or below it.
        assertThat(OrderStatisticInterval.minimumCountForUpperBound(1, 0.95)).isEqualTo(OptionalLong.empty());
        OrderStatisticInterval ranks = OrderStatisticInterval.of(1000, 1, 0.95);
        assertThat(ranks.lowerRank()).isEqualTo(1000);
        assertThat(ranks.hasUpperRank()).isFalse();
    }

    @Test
    void should_grow_the_ranks_with_the_sample_count() {
        for (double p : new double[] {0.5, 0.9, 0.99}) {
            OrderStatisticInterval previous = OrderStatisticInterval.of(1, p, 0.95);
            for (long n = 2; n <= 3000; n++) {
                OrderStatisticInterval next = OrderStatisticInterval.of(n, p, 0.95);
                assertThat(next.lowerRank())
                        .as("lower, n=%d p=%s", n, p)
                        .isBetween(previous.lowerRank(), previous.lowerRank() + 1);
                if (previous.hasUpperRank()) {
                    assertThat(next.upperRank())
                            .as("upper, n=%d p=%s", n, p)
                            .isBetween(previous.upperRank(), previous.upperRank() + 1);
                }
                previous = next;
            }
        }
    }

    @Test
    void should_bracket_the_type_7_estimate_once_both_bounds_exist() {
        for (double percentile : new double[] {50, 90, 99, 99.9}) {
            for (long n = 1; n <= 8000; n += 7) {
                OrderStatisticInterval ranks = OrderStatisticInterval.of(n, percentile / 100, 0.95);
                if (!ranks.hasLowerRank() || !ranks.hasUpperRank()) {
                    continue;
                }
                Type7Percentile.Position position = Type7Percentile.position(n, percentile);
                long below = position.lowerIndex() + 1;
                long above = position.fraction() == 0 ? below : below + 1;
                assertThat(ranks.lowerRank()).as("n=%d p%s", n, percentile).isLessThanOrEqualTo(below);
                assertThat(ranks.upperRank()).as("n=%d p%s", n, percentile).isGreaterThanOrEqualTo(above);
            }
        }
    }

    @Test
    void should_let_the_lower_bound_pass_the_estimate_of_an_extreme_percentile_of_few_samples() {
        // p99.9 of 8: F(7) = 1 - 0.999^8 ≈ 0.008 <= 0.025, so the lower rank is 8, the maximum, while type 7
        // interpolates at h = 7 * 0.999 = 6.993, below it. The true p99.9 most likely lies above all 8 samples.
        ExactDistribution samples = ExactDistribution.of(1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(OrderStatisticInterval.of(8, 0.999, 0.95).lowerRank()).isEqualTo(8);
        assertThat(samples.percentile(99.9)).isLessThan(samples.valueAtRank(8));
    }

    @Test
    void should_widen_with_the_confidence() {
        for (long n : new long[] {50, 400, 5000}) {
            OrderStatisticInterval narrow = OrderStatisticInterval.of(n, 0.9, 0.9);
            OrderStatisticInterval middle = OrderStatisticInterval.of(n, 0.9, 0.95);
            OrderStatisticInterval wide = OrderStatisticInterval.of(n, 0.9, 0.99);
            assertThat(middle.lowerRank()).isLessThanOrEqualTo(narrow.lowerRank());
            assertThat(wide.lowerRank()).isLessThanOrEqualTo(middle.lowerRank());
            // A missing upper rank is the widest of all.
            assertThat(upperOrInfinity(middle)).isGreaterThanOrEqualTo(upperOrInfinity(narrow));
            assertThat(upperOrInfinity(wide)).isGreaterThanOrEqualTo(upperOrInfinity(middle));
        }
    }

    @Test
    void should_apply_the_ranks_to_samples() {
        ExactDistribution samples = ExactDistribution.of(
                IntStream.rangeClosed(1, 10).mapToDouble(i -> i * 10.0).toArray());
        ConfidenceInterval interval = OrderStatisticInterval.forPercentile(samples, 50, 0.95);
        assertThat(interval).isEqualTo(new ConfidenceInterval(20, 90, 0.95, "order statistics (binomial)"));

        ConfidenceInterval p99 = OrderStatisticInterval.forPercentile(samples, 99, 0.95);
        // p99 of 10: F(8) = 1 - 0.99^10 - 10 * 0.99^9 * 0.01 ≈ 0.0043 <= 0.025 < F(9) = 1 - 0.99^10 ≈ 0.0956,
        // so the lower rank is 9; 0.99^10 ≈ 0.904 > 0.025 leaves no upper rank.
        assertThat(p99.lower()).isEqualTo(90.0);
        assertThat(p99.hasUpper()).isFalse();
        assertThat(p99.upper()).isNaN();
    }

    @Test
    void should_give_no_ranks_without_samples() {
        OrderStatisticInterval ranks = OrderStatisticInterval.of(0, 0.5, 0.95);
        assertThat(ranks.hasLowerRank()).isFalse();
        assertThat(ranks.hasUpperRank()).isFalse();
        ConfidenceInterval interval = ranks.applyTo(ExactDistribution.of());
        assertThat(interval.hasLower()).isFalse();
        assertThat(interval.hasUpper()).isFalse();
    }

    @Test
    void should_reject_ranks_for_another_sample_count() {
        OrderStatisticInterval ranks = OrderStatisticInterval.of(3, 0.5, 0.95);
        assertThatThrownBy(() -> ranks.applyTo(ExactDistribution.of(1, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ranks are for 3 samples, the distribution has 2");
    }

    @Test
    void should_reject_invalid_arguments() {
        assertThatThrownBy(() -> OrderStatisticInterval.of(10, 0, 0.95))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("probability must be above 0 and at most 1, was 0.0");
        assertThatThrownBy(() -> OrderStatisticInterval.of(10, 1.01, 0.95))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OrderStatisticInterval.of(10, 0.5, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("confidence must be above 0 and below 1, for example 0.95; was 1.0");
        assertThatThrownBy(() -> OrderStatisticInterval.of(-1, 0.5, 0.95))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("count must be at least 0, was -1");
    }

    private static long upperOrInfinity(OrderStatisticInterval ranks) {
        return ranks.hasUpperRank() ? ranks.upperRank() : Long.MAX_VALUE;
    }
}
