package dev.goodput.core.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class CheckInsTest {

    private final AtomicLong wallClock = new AtomicLong(1_000_000);
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private CheckIns checkIns(int count, long timeoutMillis) {
        return new CheckIns("gate", count, 2_000, wallClock::get, Duration.ofMillis(timeoutMillis));
    }

    @Test
    void should_start_the_margin_after_the_last_check_in_on_the_coordinator_clock() throws Exception {
        CheckIns checkIns = checkIns(3, 5_000);
        CompletableFuture<Long> first = checkInLater(checkIns, 2);
        awaitMissing(checkIns, 2);
        wallClock.set(5_000_000);
        CompletableFuture<Long> second = checkInLater(checkIns, 0);
        awaitMissing(checkIns, 1);
        wallClock.set(9_000_000);

        long last = checkIns.checkInAndAwait(1);

        assertThat(last).isEqualTo(9_000_000 + 2_000);
        assertThat(first.get()).isEqualTo(last);
        assertThat(second.get()).isEqualTo(last);
    }

    @Test
    void should_count_a_shard_that_checks_in_twice_once() throws Exception {
        CheckIns checkIns = checkIns(2, 5_000);
        CompletableFuture<Long> before = checkInLater(checkIns, 1);
        awaitMissing(checkIns, 1);
        CompletableFuture<Long> restarted = checkInLater(checkIns, 1);

        assertThat(checkIns.missing()).containsExactly(0);
        long agreed = checkIns.checkInAndAwait(0);
        assertThat(before.get()).isEqualTo(agreed);
        assertThat(restarted.get()).isEqualTo(agreed);
    }

    @Test
    void should_answer_a_shard_checking_in_after_the_release_with_the_same_instant() throws Exception {
        CheckIns checkIns = checkIns(1, 5_000);
        long agreed = checkIns.checkInAndAwait(0);
        wallClock.addAndGet(1_000_000);

        assertThat(checkIns.checkInAndAwait(0)).isEqualTo(agreed);
    }

    @Test
    void should_name_the_shards_that_never_checked_in_when_the_timeout_passes() throws Exception {
        CheckIns checkIns = checkIns(4, 200);
        CompletableFuture<Long> waiting = checkInLater(checkIns, 2);

        assertThatThrownBy(() -> checkIns.checkInAndAwait(0))
                .isInstanceOf(StartBarrierException.class)
                .hasMessageContaining("runId = 'gate'")
                .hasMessageContaining("shard(s) [1, 3] never checked in within timeout = PT0.2S")
                .hasMessageContaining("checked in: [0, 2]");
        assertThatThrownBy(waiting::get)
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(StartBarrierException.class)
                .hasMessageContaining("[1, 3]");
    }

    @Test
    void should_refuse_another_run_before_looking_at_its_index_and_count() {
        CheckIns checkIns = checkIns(3, 1_000);

        assertThat(checkIns.refusal("other-gate", 9, 7))
                .isEqualTo("runId = 'other-gate' of shard 9 differs from the coordinator's runId = 'gate'");
        assertThat(checkIns.refusal("gate", 1, 4))
                .isEqualTo("count = 4 of shard 1 differs from the coordinator's count = 3");
        assertThat(checkIns.refusal("gate", 3, 3)).isEqualTo("index = 3 is out of range 0..2 for count = 3");
        assertThat(checkIns.refusal("gate", -1, 3)).isEqualTo("index = -1 is out of range 0..2 for count = 3");
        assertThat(checkIns.refusal("gate", 2, 3)).isNull();
    }

    @Test
    void should_report_whether_every_shard_received_its_answer() throws Exception {
        CheckIns checkIns = checkIns(2, 1_000);
        checkIns.answered(0);
        assertThat(checkIns.awaitAllAnswered(System.nanoTime())).isFalse();
        checkIns.answered(1);
        assertThat(checkIns.awaitAllAnswered(System.nanoTime())).isTrue();
    }

    private CompletableFuture<Long> checkInLater(CheckIns checkIns, int index) {
        // Not the common pool: it may have a single thread on a small machine, and these tasks block.
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return checkIns.checkInAndAwait(index);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
    }

    private static void awaitMissing(CheckIns checkIns, int missing) throws InterruptedException {
        while (checkIns.missing().size() != missing) {
            Thread.sleep(1);
        }
    }
}
