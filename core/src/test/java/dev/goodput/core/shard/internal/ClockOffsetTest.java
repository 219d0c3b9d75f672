package dev.goodput.core.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClockOffsetTest {

    @Test
    void should_take_the_coordinator_reading_minus_the_midpoint_of_the_round_trip() {
        // Client sends at 1_000, coordinator (500 behind) reads 1_040 - 500 = 540 half-way, answer arrives at 1_080.
        ClockOffset offset = ClockOffset.of(1_000, 540, 1_080);

        assertThat(offset.offsetNanos()).isEqualTo(-500);
        assertThat(offset.roundTripNanos()).isEqualTo(80);
        assertThat(offset.uncertaintyNanos()).isEqualTo(40);
    }

    @Test
    void should_bound_the_error_by_half_the_round_trip_wherever_the_coordinator_read_its_clock() {
        long trueOffset = 250;
        for (long readAt = 1_000; readAt <= 1_080; readAt += 10) {
            ClockOffset offset = ClockOffset.of(1_000, readAt + trueOffset, 1_080);
            assertThat(Math.abs(offset.offsetNanos() - trueOffset)).isLessThanOrEqualTo(offset.uncertaintyNanos());
        }
    }

    @Test
    void should_not_overflow_on_epoch_nanoseconds() {
        long t0 = 1_764_000_000_000_000_000L;
        ClockOffset offset = ClockOffset.of(t0, t0 + 7_000_000, t0 + 2_000_000);

        assertThat(offset.offsetNanos()).isEqualTo(6_000_000);
    }

    @Test
    void should_round_the_uncertainty_of_an_odd_round_trip_up() {
        assertThat(ClockOffset.of(0, 0, 3).uncertaintyNanos()).isEqualTo(2);
    }

    @Test
    void should_prefer_the_exchange_with_the_shorter_round_trip() {
        ClockOffset slow = ClockOffset.of(0, 100, 400);
        ClockOffset fast = ClockOffset.of(0, 30, 20);

        assertThat(slow.better(fast)).isSameAs(fast);
        assertThat(fast.better(slow)).isSameAs(fast);
    }
}
