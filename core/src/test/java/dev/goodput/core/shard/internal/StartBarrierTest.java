package dev.goodput.core.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.InvalidSettingException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/** The barrier over loopback HTTP, with short timeouts and margins so that each test ends within seconds. */
@Timeout(20)
@Isolated("counts the threads the barrier starts among the JVM's, which a test beside it changes")
class StartBarrierTest {

    private static final long MILLI = 1_000_000;
    private static final BarrierSettings QUICK = BarrierSettings.defaults()
            .withTimeout(Duration.ofSeconds(10))
            .withStartMargin(Duration.ofMillis(100))
            .withRetryBackoff(Duration.ofMillis(20));

    private final WallClock coordinatorClock = WallClock.system();
    private final ExecutorService shards = Executors.newCachedThreadPool();

    @AfterEach
    void stopShards() {
        shards.shutdownNow();
    }

    @Test
    void should_give_every_shard_one_start_the_margin_after_the_last_check_in() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        BarrierCoordinator coordinator = StartBarrier.open(3, "gate", 0, QUICK, coordinatorClock);
        assertThat(newThreads(before)).isNotEmpty().allMatch(Thread::isDaemon, "daemon");
        Future<AgreedStart> first = shards.submit(join(1, 3, "gate", coordinator.port(), coordinatorClock));
        Future<AgreedStart> second = shards.submit(join(2, 3, "gate", coordinator.port(), coordinatorClock));
        long lastCheckInNoEarlierThan = coordinatorClock.epochNanos();

        AgreedStart start = coordinator.await();

        long lastCheckInNoLaterThan = coordinatorClock.epochNanos();
        assertThat(start.coordinatorStartEpochNanos() - QUICK.startMargin().toNanos())
                .isBetween(lastCheckInNoEarlierThan, lastCheckInNoLaterThan);
        assertThat(start).isEqualTo(new AgreedStart(start.startEpochNanos(), 0, 0, start.startEpochNanos()));
        for (AgreedStart joined : new AgreedStart[] {first.get(), second.get()}) {
            assertThat(joined.coordinatorStartEpochNanos()).isEqualTo(start.coordinatorStartEpochNanos());
            assertThat(Math.abs(joined.clockOffsetNanos())).isLessThanOrEqualTo(joined.offsetUncertaintyNanos());
        }
    }

    @Test
    void should_measure_a_clock_250_ms_ahead_as_an_offset_of_minus_250_ms_within_its_uncertainty() throws Exception {
        WallClock aheadClock = () -> coordinatorClock.epochNanos() + 250 * MILLI;
        BarrierCoordinator coordinator = StartBarrier.open(2, "gate", 0, QUICK, coordinatorClock);
        Future<AgreedStart> joining = shards.submit(join(1, 2, "gate", coordinator.port(), aheadClock));

        AgreedStart coordinatorStart = coordinator.await();
        AgreedStart joined = joining.get();

        assertThat(joined.offsetUncertaintyNanos()).isPositive();
        assertThat(Math.abs(joined.clockOffsetNanos() + 250 * MILLI))
                .isLessThanOrEqualTo(joined.offsetUncertaintyNanos());
        assertThat(joined.startEpochNanos() - coordinatorStart.startEpochNanos())
                .isEqualTo(-joined.clockOffsetNanos());
        assertThat(joined.startOnOwnClock().toEpochMilli() * MILLI).isLessThanOrEqualTo(joined.startEpochNanos());
    }

    @Test
    void should_let_a_shard_join_a_coordinator_that_comes_up_later() throws Exception {
        int port = freePort();
        Future<AgreedStart> joining = shards.submit(join(1, 2, "gate", port, coordinatorClock));
        // Long enough for several refused connections at the 20 ms backoff; the test holds either way.
        Thread.sleep(300);
        assertThat(joining).isNotDone();

        AgreedStart start = StartBarrier.coordinate(2, "gate", port, QUICK, coordinatorClock);

        assertThat(joining.get().coordinatorStartEpochNanos()).isEqualTo(start.coordinatorStartEpochNanos());
    }

    @Test
    void should_free_the_port_for_the_next_gate_once_every_shard_has_its_answer() throws Exception {
        int port = freePort();
        Future<AgreedStart> firstGateShard = shards.submit(join(1, 2, "gate-1", port, coordinatorClock));
        StartBarrier.coordinate(2, "gate-1", port, QUICK, coordinatorClock);
        firstGateShard.get();

        // The first gate's server lingers for about a second; the second coordinator waits for the port meanwhile,
        // and the second gate's shard is told 409 (another run) or refused until it is up.
        Future<AgreedStart> secondGateShard = shards.submit(join(1, 2, "gate-2", port, coordinatorClock));
        AgreedStart secondGate = StartBarrier.coordinate(2, "gate-2", port, QUICK, coordinatorClock);

        assertThat(secondGateShard.get().coordinatorStartEpochNanos())
                .isEqualTo(secondGate.coordinatorStartEpochNanos());
    }

    @Test
    void should_accept_a_restarted_shard_checking_in_again() throws Exception {
        // The coordinator stays up for the margin, so the second check-in is answered even if it comes after the
        // release.
        BarrierSettings longerMargin = QUICK.withStartMargin(Duration.ofSeconds(3));
        BarrierCoordinator coordinator = StartBarrier.open(2, "gate", 0, longerMargin, coordinatorClock);
        Future<AgreedStart> beforeRestart = shards.submit(join(1, 2, "gate", coordinator.port(), coordinatorClock));
        Future<AgreedStart> afterRestart = shards.submit(join(1, 2, "gate", coordinator.port(), coordinatorClock));

        AgreedStart start = coordinator.await();

        assertThat(beforeRestart.get().coordinatorStartEpochNanos()).isEqualTo(start.coordinatorStartEpochNanos());
        assertThat(afterRestart.get().coordinatorStartEpochNanos()).isEqualTo(start.coordinatorStartEpochNanos());
    }

    @Test
    void should_name_the_shard_that_never_checked_in_on_the_coordinator_and_on_the_waiting_shards() throws Exception {
        BarrierSettings shortTimeout = QUICK.withTimeout(Duration.ofSeconds(2));
        BarrierCoordinator coordinator = StartBarrier.open(3, "gate", 0, shortTimeout, coordinatorClock);
        Future<AgreedStart> joining = shards.submit(join(1, 3, "gate", coordinator.port(), coordinatorClock));
        while (coordinator.missing().contains(1) && !joining.isDone()) {
            Thread.sleep(5);
        }

        assertThatThrownBy(coordinator::await)
                .isInstanceOf(StartBarrierException.class)
                .hasMessageContaining("shard(s) [2] never checked in within timeout = PT2S")
                .hasMessageContaining("checked in: [0, 1]");
        coordinator.close();
        assertThatThrownBy(joining::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(StartBarrierException.class)
                .hasMessageContaining("HTTP 503")
                .hasMessageContaining("shard(s) [2] never checked in");
    }

    @Test
    void should_name_the_address_and_the_last_error_when_no_coordinator_answers() throws Exception {
        int port = freePort();
        BarrierSettings shortTimeout = QUICK.withTimeout(Duration.ofMillis(500));

        assertThatThrownBy(() -> StartBarrier.join(
                        1, 2, "gate", new InetSocketAddress("127.0.0.1", port), shortTimeout, coordinatorClock))
                .isInstanceOf(StartBarrierException.class)
                .hasMessageContaining("coordinator at 127.0.0.1:" + port)
                .hasMessageContaining("GET /time")
                .hasMessageContaining("last error: java.net.ConnectException");
    }

    @Test
    void should_keep_trying_a_host_name_that_does_not_resolve_yet_and_name_it_when_the_timeout_passes() {
        BarrierSettings shortTimeout = QUICK.withTimeout(Duration.ofMillis(500));
        InetSocketAddress address = StartBarrier.parseAddress("goodput-shard-0.invalid:7000", "goodput.shard.barrier");

        assertThatThrownBy(() -> StartBarrier.join(1, 2, "gate", address, shortTimeout, coordinatorClock))
                .isInstanceOf(StartBarrierException.class)
                .hasMessageContaining("coordinator at goodput-shard-0.invalid:7000")
                .hasMessageContaining("last error: java.net.ConnectException");
    }

    @Test
    void should_refuse_a_shard_with_another_count_naming_both_counts() throws Exception {
        try (BarrierCoordinator coordinator = StartBarrier.open(3, "gate", 0, QUICK, coordinatorClock)) {
            assertThatThrownBy(() -> join(1, 4, "gate", coordinator.port(), coordinatorClock)
                            .call())
                    .isInstanceOf(StartBarrierException.class)
                    .hasMessageContaining("HTTP 400")
                    .hasMessageContaining("count = 4 of shard 1 differs from the coordinator's count = 3");
        }
    }

    @Test
    void should_answer_an_index_out_of_range_with_http_400_naming_the_index() throws Exception {
        try (BarrierCoordinator coordinator = StartBarrier.open(3, "gate", 0, QUICK, coordinatorClock)) {
            HttpResponse<String> response = checkIn(coordinator.port(), "{\"runId\":\"gate\",\"index\":7,\"count\":3}");

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.body()).isEqualTo("index = 7 is out of range 0..2 for count = 3");
            assertThat(checkIn(coordinator.port(), "{\"runId\":\"gate\",\"index\":\"one\"}")
                            .body())
                    .startsWith("the check-in body needs runId (text), index and count (integers)");
        }
        assertThatThrownBy(() -> join(3, 3, "gate", 1, coordinatorClock).call())
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("index = 3 must be between 1 and 2 for a joining shard (0 coordinates)");
    }

    @Test
    void should_refuse_a_shard_of_another_run_naming_both_run_ids() throws Exception {
        try (BarrierCoordinator coordinator = StartBarrier.open(2, "gate-a", 0, QUICK, coordinatorClock)) {
            HttpResponse<String> response =
                    checkIn(coordinator.port(), "{\"runId\":\"gate-b\",\"index\":1,\"count\":2}");
            assertThat(response.statusCode()).isEqualTo(409);

            BarrierSettings shortTimeout = QUICK.withTimeout(Duration.ofMillis(500));
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", coordinator.port());
            assertThatThrownBy(() -> StartBarrier.join(1, 2, "gate-b", address, shortTimeout, coordinatorClock))
                    .isInstanceOf(StartBarrierException.class)
                    .hasMessageContaining("last error: HTTP 409: runId = 'gate-b' of shard 1 differs from the"
                            + " coordinator's runId = 'gate-a'");
        }
    }

    private Callable<AgreedStart> join(int index, int count, String runId, int port, WallClock clock) {
        return () -> StartBarrier.join(index, count, runId, new InetSocketAddress("127.0.0.1", port), QUICK, clock);
    }

    private static HttpResponse<String> checkIn(int port, String body) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/ready"))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static Set<Thread> newThreads(Set<Thread> before) {
        Set<Thread> threads = new HashSet<>(Thread.getAllStackTraces().keySet());
        threads.removeAll(before);
        return threads;
    }
}
