package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.NanoClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

@Isolated("cancels a task 30 ms before it is due: a test beside it can hold this thread past that")
class RealTimeSchedulerTest {

    private static final long MS = 1_000_000;

    @Test
    void should_never_run_a_task_before_its_time_whether_it_spins_or_not() throws InterruptedException {
        NanoClock clock = NanoClock.system();
        int tasks = 200;
        long[] due = new long[tasks];
        long[] ran = new long[tasks];
        CountDownLatch done = new CountDownLatch(tasks);
        Random random = new Random(7);
        try (RealTimeScheduler scheduler = new RealTimeScheduler(clock)) {
            long start = clock.nanoTime();
            for (int i = 0; i < tasks; i++) {
                int task = i;
                // From due at once to 20 ms ahead: both sides of SPIN_AHEAD_NANOS.
                due[i] = start + (i % 4 == 0 ? random.nextInt(100_000) : random.nextInt(20 * (int) MS));
                scheduler.schedule(due[i], () -> {
                    ran[task] = clock.nanoTime();
                    done.countDown();
                });
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        }
        for (int i = 0; i < tasks; i++) {
            assertThat(ran[i]).as("task %d", i).isGreaterThanOrEqualTo(due[i]);
        }
    }

    @Test
    void should_not_run_a_task_cancelled_in_the_queue() throws InterruptedException {
        AtomicBoolean ran = new AtomicBoolean();
        try (RealTimeScheduler scheduler = new RealTimeScheduler(NanoClock.system())) {
            long now = System.nanoTime();
            List<TaskScheduler.Cancellable> armed = new ArrayList<>();
            armed.add(scheduler.schedule(now + 30 * MS, () -> ran.set(true))); // spun for
            armed.add(scheduler.schedule(now + 5_000 * MS, () -> ran.set(true))); // beyond the spin horizon
            armed.forEach(TaskScheduler.Cancellable::cancel);
            CountDownLatch after = new CountDownLatch(1);
            scheduler.schedule(now + 60 * MS, after::countDown);
            assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(ran).isFalse();
    }

    @Test
    void should_not_run_a_task_cancelled_while_it_waits_for_its_time() throws InterruptedException {
        StoppableClock clock = new StoppableClock();
        AtomicBoolean ran = new AtomicBoolean();
        try (RealTimeScheduler scheduler = new RealTimeScheduler(clock)) {
            long due = clock.nanoTime() + 20 * MS;
            TaskScheduler.Cancellable task = scheduler.schedule(due, () -> ran.set(true));
            clock.stopAt(
                    due - RealTimeScheduler.SPIN_AHEAD_NANOS / 2); // woken early, it waits for a time that stays away
            Thread.sleep(40);
            task.cancel();
            clock.stopAt(due);
            Thread.sleep(20);
        }
        assertThat(ran).isFalse();
    }

    @Test
    void should_stop_waiting_for_a_task_s_time_when_closed() throws InterruptedException {
        StoppableClock clock = new StoppableClock();
        AtomicBoolean ran = new AtomicBoolean();
        RealTimeScheduler scheduler = new RealTimeScheduler(clock);
        long due = clock.nanoTime() + 20 * MS;
        scheduler.schedule(due, () -> ran.set(true));
        clock.stopAt(due - RealTimeScheduler.SPIN_AHEAD_NANOS / 2);
        Thread.sleep(40);
        scheduler.close();
        assertThat(scheduler.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).isFalse();
    }

    /** The system clock, until stopped at a reading. */
    private static final class StoppableClock implements NanoClock {
        private final AtomicLong stoppedAt = new AtomicLong(Long.MIN_VALUE);

        void stopAt(long nanos) {
            stoppedAt.set(nanos);
        }

        @Override
        public long nanoTime() {
            long stopped = stoppedAt.get();
            return stopped == Long.MIN_VALUE ? System.nanoTime() : stopped;
        }
    }
}
