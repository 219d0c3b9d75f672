package dev.goodput.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.PreflightException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The preflight's wait for a server still loading its model, on a fake clock: nothing sleeps. */
class LoadingWaitTest {

    private static final String LOADING = "HTTP 503: Loading model (type: unavailable_error, code: 503)";

    private final AtomicLong now = new AtomicLong(1_000);
    private final AtomicInteger pauses = new AtomicInteger();
    private final AtomicInteger tries = new AtomicInteger();

    private LoadingWait waitingAtMost(Duration limit) {
        return new LoadingWait(limit, now::get, nanos -> {
            pauses.incrementAndGet();
            now.addAndGet(nanos);
        });
    }

    /** A check that fails as a loading llama-server makes it fail for its first {@code loading} tries. */
    private Runnable serverLoadingFor(int loading) {
        return () -> {
            if (tries.incrementAndGet() <= loading) {
                throw new PreflightException("GET http://127.0.0.1:8080/v1/models", LOADING);
            }
        };
    }

    @Test
    void should_ask_again_every_half_second_while_the_server_answers_503_and_say_how_long_it_waited() {
        Duration waited = waitingAtMost(Duration.ofMinutes(2)).await(serverLoadingFor(10));

        assertThat(waited).isEqualTo(Duration.ofSeconds(5));
        assertThat(tries).hasValue(11);
        assertThat(pauses).hasValue(10);
    }

    @Test
    void should_not_wait_for_a_server_that_is_ready_nor_count_the_checks_own_time_as_a_wait() {
        Runnable readyAfterTwoSecondsOfChecking =
                () -> now.addAndGet(Duration.ofSeconds(2).toNanos());

        assertThat(waitingAtMost(Duration.ofMinutes(2)).await(readyAfterTwoSecondsOfChecking))
                .isZero();
        assertThat(pauses).hasValue(0);
    }

    @Test
    void should_fail_saying_how_long_it_waited_when_the_server_is_still_loading_at_the_limit() {
        assertThatThrownBy(() -> waitingAtMost(Duration.ofSeconds(1)).await(serverLoadingFor(100)))
                .isInstanceOf(PreflightException.class)
                .hasMessage("preflight failed: GET http://127.0.0.1:8080/v1/models: " + LOADING
                        + "; still unavailable after the preflight waited 1.0 s for it (preflightLoadingWait 1.0 s)");
        assertThat(tries).hasValue(3);
        assertThat(now.get() - 1_000).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void should_fail_at_once_when_told_not_to_wait() {
        assertThatThrownBy(() -> waitingAtMost(Duration.ZERO).await(serverLoadingFor(1)))
                .hasMessageEndingWith(
                        LOADING + "; the preflight does not wait for a loading server (preflightLoadingWait is 0)");
        assertThat(pauses).hasValue(0);
    }

    @Test
    void should_not_wait_for_any_other_failure() {
        Runnable refused = () -> {
            tries.incrementAndGet();
            throw new PreflightException(
                    "GET http://127.0.0.1:9/v1/models", "connection refused or unreachable (ConnectException)");
        };

        assertThatThrownBy(() -> waitingAtMost(Duration.ofMinutes(2)).await(refused))
                .hasMessage("preflight failed: GET http://127.0.0.1:9/v1/models: connection refused or unreachable"
                        + " (ConnectException)");
        assertThat(tries).hasValue(1);
        assertThat(pauses).hasValue(0);
    }
}
