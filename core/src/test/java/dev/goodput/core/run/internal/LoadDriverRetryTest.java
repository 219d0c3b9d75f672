package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestAttempt;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.testing.FakeScheduler;
import dev.goodput.core.testing.ScriptedTransport;
import dev.goodput.core.testing.ScriptedTransport.Chunk;
import dev.goodput.core.testing.ScriptedTransport.Response;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The driver sends a request's next attempt when its wait is over, on a fake clock. */
class LoadDriverRetryTest {

    private static final long MS = 1_000_000;
    private static final long START = 5_000 * MS;
    private static final Response UNAVAILABLE = new Response(
            503,
            MS,
            List.of(new Chunk(2 * MS, "{\"error\":{\"message\":\"busy\",\"type\":\"ServiceUnavailableError\"}}")),
            2 * MS);

    private final FakeScheduler scheduler = new FakeScheduler(START);

    private List<RequestRecord> run(Load load, ScriptedTransport transport) {
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(4).outputTokens(3).build())
                .load(load)
                .build();
        RunRecorder recorder = RunEngine.recorder(spec);
        LoadDriver driver = RunEngine.driver(spec, scheduler, transport, recorder);
        driver.start();
        scheduler.runUntilIdle(1_000_000);
        assertThat(driver.finished()).isDone();
        assertThat(driver.progress().ended()).isEqualTo(recorder.recorded());
        return recorder.snapshot().records();
    }

    private ScriptedTransport transport(Function<StreamAttempt, Response> script) {
        return new ScriptedTransport(scheduler, script);
    }

    @Test
    void should_send_the_next_attempt_after_the_back_off_and_measure_from_the_intended_start() {
        ScriptedTransport transport = transport(
                attempt -> attempt.number() < 3 ? UNAVAILABLE : ScriptedTransport.chatStream(50 * MS, 10 * MS, 3, 10));
        List<RequestRecord> records = run(Load.constantRate(10).requests(1).retries(2), transport);

        RequestRecord record = records.get(0);
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        // Sends at 0, then 2 ms + 100 ms, then 104 ms + 200 ms.
        assertThat(transport.sends()).containsExactly(START, START + 102 * MS, START + 304 * MS);
        assertThat(record.retriedAttempts())
                .extracting(RequestAttempt::number, RequestAttempt::waitNanos)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, 100 * MS),
                        org.assertj.core.groups.Tuple.tuple(2, 200 * MS));
        assertThat(record.dispatchedNanos()).isEqualTo(START);
        assertThat(record.ttftNanos()).isEqualTo(354 * MS);
        assertThat(record.ttftFromSendNanos()).isEqualTo(354 * MS);
    }

    @Test
    void should_cancel_a_request_waiting_for_its_retry_when_the_drain_ends_and_keep_the_failed_attempt() {
        Response unavailableForLong = new Response(503, MS, List.of(new Chunk(2 * MS, "busy")), 2 * MS);
        ScriptedTransport transport = transport(attempt -> unavailableForLong);
        // The second back-off (200 ms) outlasts the drain (150 ms) that starts at the only arrival.
        List<RequestRecord> records =
                run(Load.constantRate(10).requests(1).retries(3).drain(Duration.ofMillis(150)), transport);

        RequestRecord record = records.get(0);
        assertThat(record.outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(record.errorDetail()).isEqualTo("still in flight when the drain period of 150 ms ended");
        assertThat(record.endNanos()).isEqualTo(START + 150 * MS);
        assertThat(record.retriedAttempts())
                .extracting(RequestAttempt::number, RequestAttempt::httpStatus)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, 503), org.assertj.core.groups.Tuple.tuple(2, 503));
        assertThat(record.dispatchedNanos()).isEqualTo(START);
        assertThat(transport.sends()).as("no third send after the cancellation").hasSize(2);
    }

    @Test
    void should_time_out_the_second_attempt_from_its_own_send() {
        ScriptedTransport transport =
                transport(attempt -> attempt.number() == 1 ? UNAVAILABLE : new Response(200, MS, List.of(), -1));
        List<RequestRecord> records =
                run(Load.constantRate(10).requests(1).retries(1).firstTokenTimeout(Duration.ofMillis(500)), transport);

        RequestRecord record = records.get(0);
        assertThat(record.outcome()).isEqualTo(Outcome.TIMED_OUT);
        assertThat(record.errorDetail()).isEqualTo("no first token within 500 ms of sending");
        assertThat(transport.sends()).containsExactly(START, START + 102 * MS);
        assertThat(record.endNanos()).as("500 ms after the second send").isEqualTo(START + 602 * MS);
        assertThat(record.attempts()).isEqualTo(2);
        assertThat(transport.aborted()).isEqualTo(1);
    }
}
