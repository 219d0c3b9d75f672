package dev.goodput.core.faults;

import static dev.goodput.core.faults.MisbehavingServer.write;
import static dev.goodput.core.faults.MisbehavingServer.writeHead;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestAttempt;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.testing.SseText;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.Fault;
import dev.goodput.mock.Faults;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Retries are off unless asked for; when on, only failures before any streamed content are retried, a
 * server's {@code Retry-After} is honoured within the limit, latencies still count from the intended start,
 * and every earlier attempt is kept in the record.
 *
 * <p>The runs turn the preflight off: these servers count every request, and would fail it.
 */
class RetryTest {

    private static final long SECOND = 1_000_000_000L;
    private static final WorkloadSpec WORKLOAD =
            WorkloadSpec.synthetic().inputTokens(8).outputTokens(2).build();

    @Test
    void should_not_retry_unless_asked_to() throws Exception {
        try (MisbehavingServer server = new MisbehavingServer(out -> unavailable(out, "Retry-After: 0\r\n"))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                    .workload(WORKLOAD)
                    .load(Load.constantRate(20).requests(3))
                    .preflight(false)
                    .run();

            assertThat(result.accounting().count(Outcome.FAILED)).isEqualTo(3);
            assertThat(result.records()).extracting(RequestRecord::attempts).containsOnly(1);
            assertThat(server.received()).isEqualTo(3);
        }
    }

    @Test
    void should_honour_retry_after_and_keep_every_attempt_with_latency_from_the_intended_start() throws Exception {
        try (MisbehavingServer server = new MisbehavingServer((arrival, out) -> {
            if (arrival < 2) {
                unavailable(out, "Retry-After: 1\r\n");
            } else {
                stream(out);
            }
        })) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                    .workload(WORKLOAD)
                    .load(Load.constantRate(20).requests(1).retries(2))
                    .preflight(false)
                    .run();

            RequestRecord record = result.records().get(0);
            assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(record.attempts()).isEqualTo(3);
            assertThat(record.retriedAttempts())
                    .extracting(RequestAttempt::number, RequestAttempt::httpStatus, RequestAttempt::waitNanos)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(1, 503, SECOND),
                            org.assertj.core.groups.Tuple.tuple(2, 503, SECOND));
            assertThat(record.retriedAttempts())
                    .extracting(RequestAttempt::reason)
                    .containsOnly("HTTP 503: the engine is overloaded (type: ServiceUnavailableError, code: 503)");
            RequestAttempt second = record.retriedAttempts().get(1);
            assertThat(second.dispatchedNanos()
                            - record.retriedAttempts().get(0).endNanos())
                    .as("the wait before the second attempt")
                    .isGreaterThanOrEqualTo(SECOND);
            assertThat(record.dispatchedNanos())
                    .isEqualTo(record.retriedAttempts().get(0).dispatchedNanos());
            assertThat(record.ttftNanos()).as("TTFT from the intended start").isGreaterThanOrEqualTo(2 * SECOND);
            assertThat(result.accounting().scheduled()).isEqualTo(1);
            assertThat(server.received()).isEqualTo(3);
            assertThat(dev.goodput.core.report.ConsoleReport.format(result))
                    .contains("retries: 1 requests retried, 2 failed attempts retried (up to 2 retries per request)");
            assertThat(dev.goodput.core.report.JsonReport.toJson(result))
                    .containsPattern(
                            "\"retries\"\\s*:\\s*\\{\\s*\"max_retries\"\\s*:\\s*2,\\s*\"retried_requests\"\\s*:"
                                    + "\\s*1,\\s*\"retried_attempts\"\\s*:\\s*2\\s*}");
        }
    }

    @Test
    void should_fail_with_the_last_attempts_reason_when_retries_run_out_backing_off_without_retry_after()
            throws Exception {
        try (MisbehavingServer server = new MisbehavingServer(out -> unavailable(out, ""))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                    .workload(WORKLOAD)
                    .load(Load.constantRate(20).requests(2).retries(2))
                    .preflight(false)
                    .run();

            assertThat(result.accounting().count(Outcome.FAILED)).isEqualTo(2);
            assertThat(result.records()).allSatisfy(record -> {
                assertThat(record.attempts()).isEqualTo(3);
                assertThat(record.errorDetail()).startsWith("HTTP 503: the engine is overloaded");
                assertThat(record.retriedAttempts())
                        .extracting(RequestAttempt::waitNanos)
                        .containsExactly(SECOND / 10, SECOND / 5);
            });
            assertThat(result.goodRequests()).isZero();
            assertThat(server.received()).isEqualTo(6);
        }
    }

    @Test
    void should_not_wait_a_retry_after_longer_than_the_limit() throws Exception {
        try (MisbehavingServer server = new MisbehavingServer(out -> unavailable(out, "Retry-After: 120\r\n"))) {
            long started = System.nanoTime();
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                    .workload(WORKLOAD)
                    .load(Load.constantRate(20).requests(2).retries(3).maxRetryWait(Duration.ofSeconds(1)))
                    .preflight(false)
                    .run();

            assertThat(System.nanoTime() - started).isLessThan(5 * SECOND);
            assertThat(result.records()).extracting(RequestRecord::attempts).containsOnly(1);
            assertThat(result.accounting().count(Outcome.FAILED)).isEqualTo(2);
        }
    }

    @Test
    void should_cancel_a_request_still_waiting_for_its_retry_when_the_drain_ends_and_keep_its_attempt()
            throws Exception {
        try (MisbehavingServer server = new MisbehavingServer(out -> unavailable(out, "Retry-After: 5\r\n"))) {
            long started = System.nanoTime();
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "m"))
                    .workload(WORKLOAD)
                    .load(Load.constantRate(20).requests(2).retries(1).drain(Duration.ofMillis(300)))
                    .preflight(false)
                    .run();

            assertThat(System.nanoTime() - started).isLessThan(3 * SECOND);
            assertThat(result.accounting().count(Outcome.CANCELLED)).isEqualTo(2);
            assertThat(result.records()).allSatisfy(record -> {
                assertThat(record.errorDetail()).isEqualTo("still in flight when the drain period of 300 ms ended");
                assertThat(record.retriedAttempts())
                        .singleElement()
                        .satisfies(attempt -> assertThat(attempt.httpStatus()).isEqualTo(503));
                assertThat(record.dispatchedNanos()).isNotEqualTo(RequestRecord.ABSENT);
            });
            assertThat(server.received()).isEqualTo(2);
        }
    }

    @Test
    void should_never_retry_a_stream_that_already_delivered_tokens() {
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(2)))
                .withFaults(Faults.none().withRate(Fault.DROPPED_CONNECTION, 1.0)))) {
            RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(8)
                            .outputTokens(8)
                            .build())
                    .load(Load.constantRate(20).requests(3).retries(3))
                    .preflight(false)
                    .run();

            assertThat(result.accounting().count(Outcome.FAILED)).isEqualTo(3);
            assertThat(result.records()).extracting(RequestRecord::attempts).containsOnly(1);
        }
    }

    private static void unavailable(OutputStream out, String extraHeaders) throws IOException {
        writeHead(out, 503, "application/json", extraHeaders);
        write(
                out,
                "{\"error\":{\"message\":\"the engine is overloaded\",\"type\":\"ServiceUnavailableError\","
                        + "\"code\":503}}");
    }

    private static void stream(OutputStream out) throws IOException {
        writeHead(out, 200, "text/event-stream");
        write(out, SseText.roleChunk());
        write(out, SseText.contentChunk("a", null));
        write(out, SseText.contentChunk(" b", "length"));
        write(out, SseText.usageChunk(8, 2) + SseText.DONE);
    }
}
