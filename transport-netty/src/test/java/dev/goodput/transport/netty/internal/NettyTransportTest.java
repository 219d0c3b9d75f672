package dev.goodput.transport.netty.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.Goodput;
import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.NanoClock;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.run.internal.LoadDriver;
import dev.goodput.core.run.internal.RealTimeScheduler;
import dev.goodput.core.run.internal.RunEngine;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.internal.FinishedRequest;
import dev.goodput.core.transport.internal.InFlightRequest;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import dev.goodput.core.transport.internal.RequestListener;
import dev.goodput.core.transport.internal.RetryRule;
import dev.goodput.core.transport.internal.StreamSettings;
import dev.goodput.core.transport.internal.Transports;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the Netty transport adds to the shared transport suite: its selection, its pool, its abort, its stamp. */
class NettyTransportTest {

    private static final RequestSpec STREAM =
            WorkloadSpec.synthetic().inputTokens(4).outputTokens(2).build().request(0);
    /** The server holds a stream asking for 3 tokens after its first. */
    private static final RequestSpec HOLD =
            WorkloadSpec.synthetic().inputTokens(4).outputTokens(3).build().request(0);

    @Test
    void should_be_the_transport_of_this_module_s_test_runs_and_listed_among_those_available() {
        // The shared suite runs here with the system property set: this shows it really sends with Netty.
        assertThat(Transports.configuredName()).isEqualTo("netty");
        assertThat(Transports.named("netty")).isInstanceOf(NettyTransportProvider.class);
        Goodput.RunBuilder run = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(4).outputTokens(4).build())
                .load(Load.concurrency(1).requests(1));
        assertThat(run.build().transport()).isEqualTo("netty");
        assertThatThrownBy(() -> run.transport("okhttp"))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("one of jdk, netty (the setting goodput.client.transport)");
    }

    @Test
    void should_send_requests_one_after_another_on_one_kept_alive_connection() throws Exception {
        try (KeepAliveSseServer server = new KeepAliveSseServer();
                NettyTransport transport = transport(server)) {
            for (int i = 0; i < 5; i++) {
                assertThat(send(transport, i, STREAM).get(10, TimeUnit.SECONDS).outcome())
                        .isEqualTo(Outcome.SUCCESS);
                // The attempt ends at [DONE]; the connection goes back once the response's last chunk is read.
                awaitIdle(transport);
            }

            assertThat(server.connections()).as("connections opened").isEqualTo(1);
            assertThat(transport.idleConnections()).as("idle connections").isEqualTo(1);
        }
    }

    @Test
    void should_close_the_connection_of_an_exchange_aborted_mid_stream_and_send_the_next_on_a_new_one()
            throws Exception {
        try (KeepAliveSseServer server = new KeepAliveSseServer();
                NettyTransport transport = transport(server)) {
            Sent held = start(transport, 0, HOLD);
            assertThat(held.headers.get(10, TimeUnit.SECONDS)).isTrue();

            // What the driver does when a request times out: end the attempt, which aborts its exchange.
            assertThat(held.attempt.timeOut("test timeout", System.nanoTime())).isTrue();

            assertThat(server.heldClosed.await(10, TimeUnit.SECONDS))
                    .as("the server saw the aborted connection close")
                    .isTrue();
            assertThat(transport.idleConnections()).isZero();
            assertThat(send(transport, 1, STREAM).get(10, TimeUnit.SECONDS).outcome())
                    .isEqualTo(Outcome.SUCCESS);
            assertThat(server.connections()).isEqualTo(2);
        }
    }

    @Test
    void should_stamp_the_send_before_the_server_can_see_the_request_and_after_it_was_started() throws Exception {
        try (KeepAliveSseServer server = new KeepAliveSseServer();
                NettyTransport transport = transport(server)) {
            for (int i = 0; i < 3; i++) {
                long started = System.nanoTime();
                Sent sent = start(transport, i, STREAM);
                assertThat(sent.finished.get(10, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.SUCCESS);
                long stamp = sent.request.dispatchedNanos();
                assertThat(stamp).as("send stamp of request %d", i).isGreaterThan(started);
                assertThat(stamp)
                        .as("send stamp of request %d against the server's arrival", i)
                        .isLessThanOrEqualTo(server.arrivals().get(i));
            }
        }
    }

    @Test
    void should_send_a_request_started_by_the_end_of_another_on_the_connection_that_end_frees() throws Exception {
        try (KeepAliveSseServer server = new KeepAliveSseServer();
                NettyTransport transport = transport(server)) {
            // As a closed loop's user does: each request's end, seen at its [DONE] on the event loop before the
            // response's last chunk has freed the connection, starts the next.
            List<String> startingThreads = new CopyOnWriteArrayList<>();
            CompletableFuture<RequestRecord> last = new CompletableFuture<>();
            chain(transport, 0, 5, startingThreads, last);

            assertThat(last.get(10, TimeUnit.SECONDS).outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(startingThreads)
                    .hasSize(4)
                    .allSatisfy(name -> assertThat(name).startsWith("goodput-netty"));
            assertThat(server.connections()).as("connections opened").isEqualTo(1);
        }
    }

    @Test
    void should_end_every_request_of_a_closed_loop_whose_connections_are_all_refused() throws Exception {
        // Each refused connect ends its request in a callback on the event loop, outside any read, and that end
        // starts the user's next request there: only the task LoopStarts queues sends it.
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:" + port, "m"))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(4).outputTokens(2).build())
                .load(Load.concurrency(2).requests(40))
                .build();
        RunRecorder recorder = RunEngine.recorder(spec);
        try (RealTimeScheduler scheduler = new RealTimeScheduler(NanoClock.system());
                NettyTransport transport = new NettyTransport(
                        ServerEndpoint.of("http://127.0.0.1:" + port, "m"), NanoClock.system(), ReadTap.NONE)) {
            assertThat(transport.startsOnReadThreadsCheaply()).isTrue();
            LoadDriver driver = RunEngine.driver(spec, scheduler, transport, recorder);
            driver.start();
            driver.finished().get(20, TimeUnit.SECONDS);
        }

        List<RequestRecord> records = recorder.snapshot().records();
        assertThat(records).hasSize(40);
        assertThat(records).extracting(RequestRecord::outcome).containsOnly(Outcome.FAILED);
        assertThat(records)
                .extracting(RequestRecord::errorDetail)
                .allSatisfy(detail -> assertThat(detail).startsWith("connection refused"));
    }

    /** Starts request {@code index}, whose end starts the next, up to {@code count}; the last completes {@code last}. */
    private static void chain(
            NettyTransport transport,
            long index,
            int count,
            List<String> startingThreads,
            CompletableFuture<RequestRecord> last) {
        RequestListener listener = new RequestListener() {
            @Override
            public void retrying(InFlightRequest request, long waitNanos) {}

            @Override
            public void finished(InFlightRequest request, FinishedRequest handover) {
                if (index + 1 == count || handover.record().outcome() != Outcome.SUCCESS) {
                    last.complete(handover.record());
                } else {
                    startingThreads.add(Thread.currentThread().getName());
                    chain(transport, index + 1, count, startingThreads, last);
                }
            }
        };
        long now = System.nanoTime();
        InFlightRequest request = new InFlightRequest(
                index, Phase.MEASURED, STREAM, now, StreamSettings.of(true), RetryRule.NEVER, listener);
        MeasuredAttempt attempt = request.send(now, false);
        attempt.attach(transport.start(attempt));
    }

    private static void awaitIdle(NettyTransport transport) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (transport.idleConnections() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    private static NettyTransport transport(KeepAliveSseServer server) {
        return new NettyTransport(
                ServerEndpoint.of(server.baseUrl(), "m").withConnectTimeout(Duration.ofSeconds(5)),
                NanoClock.system(),
                ReadTap.NONE);
    }

    private static CompletableFuture<RequestRecord> send(NettyTransport transport, long index, RequestSpec spec) {
        return start(transport, index, spec).finished;
    }

    /** A request started by hand; its futures complete on the transport's threads. */
    private record Sent(
            InFlightRequest request,
            MeasuredAttempt attempt,
            CompletableFuture<Boolean> headers,
            CompletableFuture<RequestRecord> finished) {}

    private static Sent start(NettyTransport transport, long index, RequestSpec spec) {
        CompletableFuture<RequestRecord> finished = new CompletableFuture<>();
        CompletableFuture<Boolean> headers = new CompletableFuture<>();
        RequestListener listener = new RequestListener() {
            @Override
            public void retrying(InFlightRequest request, long waitNanos) {}

            @Override
            public void finished(InFlightRequest request, FinishedRequest handover) {
                finished.complete(request.record());
            }
        };
        long now = System.nanoTime();
        InFlightRequest request = new InFlightRequest(
                index, Phase.MEASURED, spec, now, StreamSettings.of(true), RetryRule.NEVER, listener);
        MeasuredAttempt attempt = request.send(now, false);
        attempt.attach(transport.start(attempt));
        CompletableFuture.runAsync(() -> {
            while (!attempt.hasHeaders() && !finished.isDone()) {
                Thread.onSpinWait();
            }
            headers.complete(attempt.hasHeaders());
        });
        return new Sent(request, attempt, headers, finished);
    }
}
