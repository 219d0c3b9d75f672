package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IntervalSweepTest {

    @Test
    void should_not_count_an_interval_that_ends_where_another_starts_as_overlapping_it() {
        // [0, 10) and [10, 20): the end at 10 is taken before the start at 10.
        assertThat(IntervalSweep.peak(new long[] {0, 10}, new long[] {10, 20})).isEqualTo(1);
    }

    @Test
    void should_find_the_most_intervals_open_at_one_instant_whatever_their_order() {
        // [0, 10), [5, 15), [8, 9), [10, 20), [12, 30): three are open at 8 (the first two and [8, 9)) and at 12
        // ([5, 15), [10, 20), [12, 30)).
        long[] starts = {12, 0, 10, 5, 8};
        long[] ends = {30, 10, 20, 15, 9};
        assertThat(IntervalSweep.peak(starts, ends)).isEqualTo(3);
        // Several starting at the same instant all count.
        assertThat(IntervalSweep.peak(new long[] {7, 7, 7}, new long[] {8, 9, 10}))
                .isEqualTo(3);
    }

    @Test
    void should_let_an_empty_interval_add_nothing_as_vllm_sweep_does() {
        // [5, 5) inside [0, 10): its end is taken before its start, so at most one interval is open.
        assertThat(IntervalSweep.peak(new long[] {0, 5}, new long[] {10, 5})).isEqualTo(1);
        assertThat(IntervalSweep.peak(new long[0], new long[0])).isZero();
    }

    @Test
    void should_name_both_lengths_when_starts_and_ends_differ_in_number() {
        assertThatThrownBy(() -> IntervalSweep.peak(new long[] {1, 2}, new long[] {3}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("were 2 and 1");
    }
}
