package dev.goodput.core.faults;

import static dev.goodput.core.faults.MisbehavingServer.write;
import static dev.goodput.core.faults.MisbehavingServer.writeHead;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.testing.SseText;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.Fault;
import dev.goodput.mock.Faults;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the real client against servers that misbehave, one fault per row, and holds each run to what a user
 * must be able to trust: it ends within its time bound, every scheduled request ends in exactly one outcome
 * with a readable reason, a failed request is never good (goodput and SLO attainment count it), and the
 * verdict fails. Every row sends {@value #REQUESTS} requests on loopback and takes about a second.
 *
 * <p>The runs turn the preflight off: it would refuse these servers before the run this matrix is about
 * ({@code PreflightTest} covers that).
 */
class FaultMatrixTest {

    private static final int REQUESTS = 6;
    private static final Duration TIME_BOUND = Duration.ofSeconds(8);
    private static final SloSpec ATTAINMENT = SloSpec.of(Metric.SLO_ATTAINMENT).atLeast(0.9);
    private static final SloSpec TTFT = SloSpec.of(Metric.TTFT).percentile(50).atMost(Duration.ofSeconds(5));

    /** One row: a server, the load profile's timeouts, and the single outcome every request must end in. */
    record Row(String fault, Server server, UnaryOperator<Load> timeouts, Outcome outcome, String reason) {
        @Override
        public String toString() {
            return fault;
        }
    }

    /** Starts a server for a row and tells its base URL. */
    @FunctionalInterface
    interface Server {
        Running start() throws IOException;
    }

    interface Running extends AutoCloseable {
        String baseUrl();

        @Override
        void close() throws IOException;
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                        new Row(
                                "HTTP 400 before streaming",
                                scripted(out -> errorResponse(out, 400, "max_tokens is too large")),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "HTTP 400: max_tokens is too large"),
                        new Row(
                                "HTTP 429 before streaming, no Retry-After",
                                simulated(Faults.none().withRate(Fault.HTTP_429, 1.0)),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "HTTP 429: "),
                        new Row(
                                "HTTP 429 before streaming, with Retry-After",
                                simulated(Faults.none()
                                        .withRate(Fault.HTTP_429, 1.0)
                                        .withRetryAfter(Duration.ofSeconds(3))),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "HTTP 429: "),
                        new Row(
                                "HTTP 500 before streaming",
                                simulated(Faults.none().withRate(Fault.HTTP_500, 1.0)),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "HTTP 500: "),
                        new Row(
                                "HTTP 503 before streaming, no Retry-After",
                                simulated(Faults.none().withRate(Fault.HTTP_503, 1.0)),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "HTTP 503: "),
                        new Row(
                                "HTTP 503 before streaming, with Retry-After",
                                simulated(Faults.none()
                                        .withRate(Fault.HTTP_503, 1.0)
                                        .withRetryAfter(Duration.ofSeconds(3))),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "HTTP 503: "),
                        new Row(
                                "error event inside a 200 stream",
                                simulated(Faults.none().withRate(Fault.STREAM_ERROR, 1.0)),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "error event in the stream: "),
                        new Row(
                                "connection dropped mid-stream",
                                simulated(Faults.none().withRate(Fault.DROPPED_CONNECTION, 1.0)),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "connection closed by the server (EOFException"),
                        new Row(
                                "stall longer than the per-request timeout",
                                simulated(Faults.none()
                                        .withRate(Fault.STALL, 1.0)
                                        .withStallDuration(Duration.ofSeconds(3))),
                                load -> load.totalTimeout(Duration.ofMillis(600)),
                                Outcome.TIMED_OUT,
                                "within 600 ms of sending"),
                        new Row(
                                "malformed JSON chunk",
                                simulated(Faults.none().withRate(Fault.MALFORMED_CHUNK, 1.0)),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "malformed stream event: "),
                        new Row(
                                "stream without [DONE]",
                                simulated(Faults.none().withRate(Fault.MISSING_DONE, 1.0)),
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "the stream ended without [DONE] after "),
                        new Row(
                                "never-ending stream, total timeout",
                                scripted(FaultMatrixTest::endlessStream),
                                load -> load.totalTimeout(Duration.ofMillis(600)),
                                Outcome.TIMED_OUT,
                                "within 600 ms of sending"),
                        new Row(
                                "never-ending stream, no timeout",
                                scripted(FaultMatrixTest::endlessStream),
                                load -> load.drain(Duration.ofMillis(800)),
                                Outcome.CANCELLED,
                                "when the drain period of 800 ms ended"),
                        new Row(
                                "slow headers, headers timeout",
                                scripted(out -> {
                                    Thread.sleep(5_000);
                                    writeHead(out, 200, "text/event-stream");
                                }),
                                load -> load.headersTimeout(Duration.ofMillis(400)),
                                Outcome.TIMED_OUT,
                                "within 400 ms of sending"),
                        new Row(
                                "server that refuses connections",
                                FaultMatrixTest::refusing,
                                UnaryOperator.identity(),
                                Outcome.FAILED,
                                "connection refused or unreachable"))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void should_end_every_request_in_one_outcome_with_a_reason_and_fail_the_verdict(Row row) throws Exception {
        try (Running server = row.server().start()) {
            long started = System.nanoTime();
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), MockServerConfig.DEFAULT_MODEL_NAME))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(8)
                            .outputTokens(8)
                            .build())
                    .load(row.timeouts().apply(Load.constantRate(20).requests(REQUESTS)))
                    .objectives(ATTAINMENT, TTFT)
                    .preflight(false)
                    .run();
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(took).as("run time").isLessThan(TIME_BOUND);
            assertThat(result.accounting().isBalanced()).isTrue();
            assertThat(result.accounting().scheduled()).isEqualTo(REQUESTS);
            assertThat(result.accounting().count(row.outcome())).isEqualTo(REQUESTS);
            assertThat(result.records()).extracting(RequestRecord::outcome).containsOnly(row.outcome());
            assertThat(result.records())
                    .extracting(RequestRecord::errorDetail)
                    .allSatisfy(reason -> assertThat(reason).contains(row.reason()));
            assertThat(result.records())
                    .as("attempts per request, with retries off by default")
                    .extracting(RequestRecord::attempts)
                    .containsOnly(1);
            assertThat(result.goodRequests()).isZero();
            assertThat(result.goodput()).isZero();
            if (row.outcome() == Outcome.CANCELLED) {
                // Cancelled requests are outside the attainment's denominator (METRICS.md), so nothing is left.
                assertThat(result.value(Metric.SLO_ATTAINMENT)).isNaN();
            } else {
                assertThat(result.value(Metric.SLO_ATTAINMENT)).isZero();
            }
            assertThat(result.allMet()).isFalse();
            assertThat(result.verdicts()).extracting(SloVerdict::verdict).doesNotContain(Verdict.MET);
        }
    }

    @Test
    void should_read_multi_megabyte_chunks_whole_and_count_them_as_success() throws Exception {
        String threeMegabytes = "x".repeat(3 * 1024 * 1024);
        try (MisbehavingServer server = new MisbehavingServer(out -> {
            writeHead(out, 200, "text/event-stream");
            write(out, SseText.roleChunk());
            write(out, SseText.contentChunk(threeMegabytes, null));
            write(out, SseText.contentChunk(threeMegabytes, "length"));
            write(out, SseText.usageChunk(8, 2) + SseText.DONE);
        })) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "big-chunks"))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(8)
                            .outputTokens(2)
                            .build())
                    .load(Load.constantRate(20).requests(4))
                    .objectives(ATTAINMENT)
                    .preflight(false)
                    .run();

            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(4);
            assertThat(result.records()).allSatisfy(record -> {
                assertThat(record.contentEvents()).isEqualTo(2);
                assertThat(record.outputTokens()).isEqualTo(2);
            });
            // Every request was good; four of them cannot show an attainment bound with 95 % confidence.
            assertThat(result.verdicts()).extracting(SloVerdict::measured).containsExactly(1.0);
        }
    }

    @Test
    void should_fail_the_requests_of_a_server_that_dies_in_the_middle_of_a_run() throws Exception {
        int requests = 20;
        MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(20), Duration.ofMillis(40))));
        ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor();
        try {
            killer.schedule(server::close, 500, TimeUnit.MILLISECONDS);
            long started = System.nanoTime();
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(8)
                            .outputTokens(8)
                            .build())
                    .load(Load.constantRate(20).requests(requests))
                    .objectives(ATTAINMENT)
                    .preflight(false)
                    .run();

            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIME_BOUND);
            assertThat(result.accounting().isBalanced()).isTrue();
            long succeeded = result.accounting().count(Outcome.SUCCESS);
            long failed = result.accounting().count(Outcome.FAILED);
            assertThat(succeeded + failed).isEqualTo(requests);
            // Requests sent after the 500 ms kill (at 50 ms apart, at least the last ten) cannot succeed.
            assertThat(failed).isGreaterThanOrEqualTo(10);
            assertThat(result.records())
                    .filteredOn(record -> !record.isSuccess())
                    .extracting(RequestRecord::errorDetail)
                    .allSatisfy(reason -> assertThat(reason)
                            .matches("(connection refused or unreachable|connection closed by the server"
                                    + "|connection failed|the stream ended without \\[DONE\\]).*"));
            assertThat(result.goodRequests()).isEqualTo(succeeded);
            assertThat(result.value(Metric.SLO_ATTAINMENT)).isEqualTo((double) succeeded / requests);
            assertThat(result.verdicts()).extracting(SloVerdict::verdict).containsExactly(Verdict.VIOLATED);
        } finally {
            killer.shutdownNow();
            server.close();
        }
    }

    private static Server simulated(Faults faults) {
        return () -> {
            MockServer server = MockServer.start(MockServerConfig.defaults()
                    .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(10), Duration.ofMillis(5)))
                    .withFaults(faults));
            return new Running() {
                @Override
                public String baseUrl() {
                    return server.baseUrl();
                }

                @Override
                public void close() {
                    server.close();
                }
            };
        };
    }

    private static Server scripted(MisbehavingServer.Behaviour behaviour) {
        return () -> {
            MisbehavingServer server = new MisbehavingServer(behaviour);
            return new Running() {
                @Override
                public String baseUrl() {
                    return server.baseUrl();
                }

                @Override
                public void close() throws IOException {
                    server.close();
                }
            };
        };
    }

    private static Running refusing() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        return new Running() {
            @Override
            public String baseUrl() {
                return "http://127.0.0.1:" + port;
            }

            @Override
            public void close() {}
        };
    }

    static void errorResponse(java.io.OutputStream out, int status, String message) throws IOException {
        writeHead(out, status, "application/json");
        write(
                out,
                "{\"error\":{\"message\":\"" + message + "\",\"type\":\"BadRequestError\",\"code\":" + status + "}}");
    }

    private static void endlessStream(java.io.OutputStream out) throws IOException, InterruptedException {
        writeHead(out, 200, "text/event-stream");
        write(out, SseText.roleChunk());
        for (int i = 0; ; i++) {
            write(out, SseText.contentChunk(" w" + i, null));
            Thread.sleep(10);
        }
    }
}
