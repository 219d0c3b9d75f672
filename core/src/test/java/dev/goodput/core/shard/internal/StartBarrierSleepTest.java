package dev.goodput.core.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StartBarrierSleepTest {

    private static final long MILLI = 1_000_000;

    private final AtomicLong fakeClock = new AtomicLong(10_000 * MILLI);
    private final List<Long> pauses = new ArrayList<>();

    @Test
    void should_sleep_coarsely_then_park_for_the_rest_and_wake_exactly_on_time_when_pauses_are_exact()
            throws InterruptedException {
        long lateness = StartBarrier.sleepUntil(fakeClock.get() + 500 * MILLI, fakeClock::get, this::exactPause);

        assertThat(lateness).isZero();
        assertThat(pauses).containsExactly(499 * MILLI, MILLI);
    }

    @Test
    void should_keep_waiting_when_a_pause_ends_early() throws InterruptedException {
        long target = fakeClock.get() + 100 * MILLI;

        long lateness = StartBarrier.sleepUntil(target, fakeClock::get, nanos -> {
            pauses.add(nanos);
            fakeClock.addAndGet(Math.max(nanos / 2, 1));
        });

        assertThat(fakeClock.get()).isGreaterThanOrEqualTo(target);
        assertThat(lateness).isEqualTo(fakeClock.get() - target);
        assertThat(pauses).hasSizeGreaterThan(2);
    }

    @Test
    void should_report_how_late_it_woke_when_a_pause_overshoots() throws InterruptedException {
        long target = fakeClock.get() + 100 * MILLI;

        long lateness =
                StartBarrier.sleepUntil(target, fakeClock::get, nanos -> fakeClock.addAndGet(nanos + 3 * MILLI));

        assertThat(lateness).isEqualTo(2 * MILLI);
    }

    @Test
    void should_return_at_once_with_the_lateness_when_the_instant_has_passed() throws InterruptedException {
        long lateness = StartBarrier.sleepUntil(fakeClock.get() - 7 * MILLI, fakeClock::get, this::exactPause);

        assertThat(lateness).isEqualTo(7 * MILLI);
        assertThat(pauses).isEmpty();
    }

    @Test
    void should_wake_at_or_after_the_instant_on_the_system_clock() throws InterruptedException {
        WallClock clock = WallClock.system();
        long target = clock.epochNanos() + Duration.ofMillis(30).toNanos();

        long lateness = StartBarrier.sleepUntil(target, clock);

        long now = clock.epochNanos();
        assertThat(now).isGreaterThanOrEqualTo(target);
        assertThat(lateness).isNotNegative().isLessThanOrEqualTo(now - target);
        // Generous: only a sleep that ignores the instant altogether would take this long.
        assertThat(lateness).isLessThan(Duration.ofSeconds(5).toNanos());
    }

    @Test
    void should_read_the_system_clock_monotonically_and_close_to_instant_now() {
        WallClock clock = WallClock.system();
        long previous = clock.epochNanos();
        for (int reading = 0; reading < 10_000; reading++) {
            long next = clock.epochNanos();
            assertThat(next).isGreaterThanOrEqualTo(previous);
            previous = next;
        }
        java.time.Instant now = java.time.Instant.now();
        long instantNow = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        assertThat(Math.abs(clock.epochNanos() - instantNow))
                .isLessThan(Duration.ofSeconds(1).toNanos());
    }

    private void exactPause(long nanos) {
        pauses.add(nanos);
        fakeClock.addAndGet(nanos);
    }
}
