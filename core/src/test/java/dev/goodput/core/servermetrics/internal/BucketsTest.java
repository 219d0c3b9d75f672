package dev.goodput.core.servermetrics.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Quantiles and differences of cumulative buckets, against values worked out by hand. */
class BucketsTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    // 10 observations up to 0.1, 30 more up to 0.5, 50 more up to 1, 10 above 1.
    private final Buckets hundred =
            new Buckets(new double[] {0.1, 0.5, 1.0, INF}, new double[] {10, 40, 90, 100}, 62, 100);

    @Test
    void should_interpolate_inside_the_bucket_that_holds_the_rank() {
        // Rank 50 lies 10 of 50 into (0.5, 1]: 0.5 + 0.5 * 10 / 50.
        assertThat(hundred.quantile(0.5)).isCloseTo(0.6, within(1e-12));
        // Rank 25 lies 15 of 30 into (0.1, 0.5]: 0.1 + 0.4 * 15 / 30.
        assertThat(hundred.quantile(0.25)).isCloseTo(0.3, within(1e-12));
        // Rank 5 lies 5 of 10 into the first bucket, which starts at 0.
        assertThat(hundred.quantile(0.05)).isCloseTo(0.05, within(1e-12));
        assertThat(hundred.quantile(0.9)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void should_answer_the_highest_finite_bound_when_the_rank_is_in_the_inf_bucket() {
        assertThat(hundred.quantile(0.95)).isEqualTo(1.0);
        assertThat(hundred.quantile(1.0)).isEqualTo(1.0);
    }

    @Test
    void should_answer_the_first_bound_when_it_is_not_positive() {
        Buckets withZero = new Buckets(new double[] {0.0, 0.1, INF}, new double[] {10, 90, 100}, 4, 100);
        assertThat(withZero.quantile(0.05)).isEqualTo(0.0);
        assertThat(withZero.quantile(0.5)).isCloseTo(0.05, within(1e-12));
    }

    @Test
    void should_read_the_count_as_the_inf_bucket_when_there_is_none() {
        Buckets noInf = new Buckets(new double[] {0.1, 0.5, 1.0}, new double[] {10, 40, 90}, 62, 100);
        assertThat(noInf.quantile(0.5)).isCloseTo(0.6, within(1e-12));
        assertThat(noInf.quantile(0.95)).isEqualTo(1.0);
    }

    @Test
    void should_even_out_counts_that_dip_as_prometheus_does() {
        Buckets dipping = new Buckets(new double[] {1, 2, INF}, new double[] {10, 8, 20}, 20, 20);
        // Treated as 10, 10, 20: rank 10 is reached in the first bucket.
        assertThat(dipping.quantile(0.5)).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void should_be_nan_without_observations() {
        Buckets empty = new Buckets(new double[] {1, INF}, new double[] {0, 0}, 0, 0);
        assertThat(empty.quantile(0.5)).isNaN();
        assertThat(empty.mean()).isNaN();
    }

    @Test
    void should_reject_a_quantile_outside_zero_to_one() {
        assertThatThrownBy(() -> hundred.quantile(1.5)).hasMessage("q must be between 0 and 1, got 1.5");
        assertThatThrownBy(() -> hundred.quantile(Double.NaN)).hasMessage("q must be between 0 and 1, got NaN");
    }

    @Test
    void should_give_the_mean_from_sum_and_count() {
        assertThat(hundred.mean()).isCloseTo(0.62, within(1e-12));
    }

    @Test
    void should_subtract_an_earlier_reading_bucket_by_bucket() {
        Buckets earlier = new Buckets(new double[] {0.1, 0.5, 1.0, INF}, new double[] {5, 15, 35, 40}, 22, 40);
        Buckets run = hundred.minus(earlier);
        assertThat(run).isEqualTo(new Buckets(new double[] {0.1, 0.5, 1.0, INF}, new double[] {5, 25, 55, 60}, 40, 60));
        // Rank 30 lies 5 of 30 into (0.5, 1]: 0.5 + 0.5 * 5 / 30.
        assertThat(run.quantile(0.5)).isCloseTo(0.5 + 0.5 * 5 / 30, within(1e-12));
    }

    @Test
    void should_return_itself_when_a_count_went_down_because_the_server_restarted() {
        Buckets beforeRestart = new Buckets(new double[] {0.1, 0.5, 1.0, INF}, new double[] {20, 30, 40, 50}, 30, 50);
        assertThat(hundred.minus(beforeRestart)).isSameAs(hundred);
        Buckets biggerBefore = new Buckets(new double[] {0.1, 0.5, 1.0, INF}, new double[] {1, 2, 3, 200}, 1, 200);
        assertThat(hundred.minus(biggerBefore)).isSameAs(hundred);
    }

    @Test
    void should_return_itself_when_the_bounds_changed() {
        Buckets other = new Buckets(new double[] {0.2, INF}, new double[] {1, 2}, 1, 2);
        assertThat(hundred.minus(other)).isSameAs(hundred);
    }

    @Test
    void should_reject_bounds_that_do_not_ascend_or_do_not_pair_with_counts() {
        assertThatThrownBy(() -> new Buckets(new double[] {1, 1}, new double[] {1, 2}, 0, 2))
                .hasMessage("upperBounds must ascend, but 1.0 follows 1.0 at index 1");
        assertThatThrownBy(() -> new Buckets(new double[] {1}, new double[] {1, 2}, 0, 2))
                .hasMessage("upperBounds has 1 entries but cumulativeCounts 2");
    }

    @Test
    void should_not_let_callers_change_it_through_its_arrays() {
        double[] bounds = {1, INF};
        Buckets buckets = new Buckets(bounds, new double[] {1, 2}, 1, 2);
        bounds[0] = 5;
        buckets.upperBounds()[0] = 7;
        assertThat(buckets.upperBounds()).containsExactly(1, INF);
    }
}
