package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.testing.FakeScheduler;
import dev.goodput.core.testing.ScriptedTransport;
import dev.goodput.core.testing.ScriptedTransport.Response;
import dev.goodput.core.transport.Exchange;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class LoadDriverTest {

    private static final long MS = 1_000_000;
    private static final long START = 5_000 * MS;

    private final FakeScheduler scheduler = new FakeScheduler(START);

    private List<RequestRecord> run(Load load, Function<dev.goodput.core.transport.StreamAttempt, Response> script) {
        return run(load, new ScriptedTransport(scheduler, script));
    }

    private List<RequestRecord> run(Load load, ScriptedTransport transport) {
        RunSpec spec = spec(load);
        RunRecorder recorder = RunEngine.recorder(spec);
        LoadDriver driver = RunEngine.driver(spec, scheduler, transport, recorder);
        driver.start();
        scheduler.runUntilIdle(1_000_000);
        assertThat(driver.finished()).isDone();
        return recorder.snapshot().records();
    }

    private static Response stream(long ttftMillis) {
        return ScriptedTransport.chatStream(ttftMillis * MS, 10 * MS, 3, 10);
    }

    private static List<Long> intendedOffsetsMillis(List<RequestRecord> records) {
        return records.stream().map(r -> (r.intendedNanos() - START) / MS).toList();
    }

    @Test
    void should_send_a_constant_rate_schedule_at_its_exact_instants() {
        List<RequestRecord> records = run(Load.constantRate(10).requests(5), request -> stream(50));

        assertThat(intendedOffsetsMillis(records)).containsExactly(0L, 100L, 200L, 300L, 400L);
        assertThat(records).allSatisfy(record -> {
            assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
            assertThat(record.dispatchedNanos()).isEqualTo(record.intendedNanos());
            assertThat(record.ttftNanos()).isEqualTo(50 * MS);
            assertThat(record.e2elNanos()).isEqualTo(70 * MS);
        });
        assertThat(records).extracting(RequestRecord::index).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void should_stop_creating_at_the_duration_limit() {
        List<RequestRecord> records = run(Load.constantRate(10).duration(Duration.ofSeconds(1)), request -> stream(50));

        assertThat(intendedOffsetsMillis(records))
                .containsExactly(0L, 100L, 200L, 300L, 400L, 500L, 600L, 700L, 800L, 900L);
    }

    @Test
    void should_hold_arrivals_beyond_the_concurrency_cap_and_count_the_wait_as_queue_time() {
        // Each request takes 250 ms end to end; arrivals every 100 ms; one slot.
        List<RequestRecord> records = run(Load.constantRate(10).requests(4).maxConcurrency(1), request -> stream(230));

        assertThat(records).extracting(r -> (r.dispatchedNanos() - START) / MS).containsExactly(0L, 250L, 500L, 750L);
        assertThat(records).extracting(r -> r.queueNanos() / MS).containsExactly(0L, 150L, 300L, 450L);
        assertThat(records).extracting(RequestRecord::heldByConcurrencyCap).containsExactly(false, true, true, true);
        assertThat(records).extracting(r -> r.ttftNanos() / MS).containsExactly(230L, 380L, 530L, 680L);
        assertThat(records).extracting(r -> r.ttftFromSendNanos() / MS).containsExactly(230L, 230L, 230L, 230L);
    }

    @Test
    void should_mark_warm_up_and_cool_down_by_count() {
        List<RequestRecord> records =
                run(Load.constantRate(10).requests(5).warmupRequests(2).cooldownRequests(1), request -> stream(50));

        assertThat(records)
                .extracting(RequestRecord::phase)
                .containsExactly(Phase.WARMUP, Phase.WARMUP, Phase.MEASURED, Phase.MEASURED, Phase.COOLDOWN);
    }

    @Test
    void should_mark_warm_up_and_cool_down_by_time() {
        List<RequestRecord> records = run(
                Load.constantRate(10).requests(6).warmup(Duration.ofMillis(250)).cooldown(Duration.ofMillis(150)),
                request -> stream(50));

        // Offsets 0..500 ms; warm-up below 250 ms; the load period ends at the last arrival (500 ms), so
        // cool-down starts at 350 ms.
        assertThat(records)
                .extracting(RequestRecord::phase)
                .containsExactly(
                        Phase.WARMUP, Phase.WARMUP, Phase.WARMUP, Phase.MEASURED, Phase.COOLDOWN, Phase.COOLDOWN);
    }

    @Test
    void should_cancel_what_is_left_when_the_drain_period_ends() {
        ScriptedTransport transport = new ScriptedTransport(scheduler, request -> new Response(200, MS, List.of(), -1));
        List<RequestRecord> records =
                run(Load.constantRate(10).requests(3).maxConcurrency(2).drain(Duration.ofSeconds(2)), transport);

        assertThat(records).extracting(RequestRecord::outcome).containsOnly(Outcome.CANCELLED);
        assertThat(records)
                .extracting(RequestRecord::errorDetail)
                .containsExactly(
                        "still in flight when the drain period of 2 s ended",
                        "still in flight when the drain period of 2 s ended",
                        "still waiting for a concurrency slot when the drain period of 2 s ended");
        assertThat(records)
                .extracting(r -> (r.endNanos() - START) / MS)
                .as(records.toString())
                .containsOnly(2200L);
        assertThat(transport.aborted()).isEqualTo(2);
    }

    @Test
    void should_time_out_requests_whose_headers_or_first_token_or_end_are_late() {
        List<RequestRecord> records = run(
                Load.constantRate(10)
                        .requests(3)
                        .headersTimeout(Duration.ofMillis(500))
                        .firstTokenTimeout(Duration.ofSeconds(1))
                        .totalTimeout(Duration.ofSeconds(2)),
                request -> switch ((int) request.requestIndex()) {
                    case 0 -> new Response(200, 600 * MS, List.of(), -1);
                    case 1 -> ScriptedTransport.chatStream(1500 * MS, 10 * MS, 3, 10);
                    default -> ScriptedTransport.chatStream(100 * MS, 1000 * MS, 3, 10);
                });

        assertThat(records).extracting(RequestRecord::outcome).containsOnly(Outcome.TIMED_OUT);
        assertThat(records)
                .extracting(RequestRecord::errorDetail)
                .containsExactly(
                        "no response headers within 500 ms of sending",
                        "no first token within 1 s of sending",
                        "not finished within 2 s of sending");
        assertThat(records)
                .extracting(r -> (r.endNanos() - r.dispatchedNanos()) / MS)
                .containsExactly(500L, 1000L, 2000L);
    }

    @Test
    void should_run_closed_loop_users_with_think_time_until_the_request_limit() {
        List<RequestRecord> records =
                run(Load.concurrency(2).requests(6).thinkTime(Duration.ofMillis(50)), request -> stream(80));

        // A request takes 100 ms; each user's next one is intended 50 ms after its previous one ended.
        assertThat(intendedOffsetsMillis(records)).containsExactly(0L, 0L, 150L, 150L, 300L, 300L);
        assertThat(records).extracting(RequestRecord::outcome).containsOnly(Outcome.SUCCESS);
        assertThat(records).allSatisfy(r -> assertThat(r.queueNanos()).isZero());
    }

    @Test
    void should_stop_a_closed_loop_at_the_duration_limit() {
        List<RequestRecord> records = run(Load.concurrency(1).duration(Duration.ofMillis(350)), request -> stream(80));

        assertThat(intendedOffsetsMillis(records)).containsExactly(0L, 100L, 200L, 300L);
    }

    @Test
    void should_account_for_every_request_whatever_its_outcome() {
        List<RequestRecord> records =
                run(Load.constantRate(20).requests(40).totalTimeout(Duration.ofSeconds(1)), request -> switch ((int)
                        (request.requestIndex() % 4)) {
                    case 0 -> stream(50);
                    case 1 -> new Response(500, MS, List.of(new ScriptedTransport.Chunk(MS, "{}")), 2 * MS);
                    case 2 -> new Response(200, MS, List.of(), -1);
                    default ->
                        new Response(
                                200,
                                MS,
                                List.of(new ScriptedTransport.Chunk(
                                        5 * MS, "data: {\"choices\":[{\"text\":\"x\"}]}\n\n")),
                                6 * MS);
                });

        dev.goodput.core.result.Accounting accounting = dev.goodput.core.result.Accounting.of(records);
        assertThat(accounting.scheduled()).isEqualTo(40);
        assertThat(accounting.isBalanced()).isTrue();
        assertThat(accounting.count(Outcome.SUCCESS)).isEqualTo(10);
        assertThat(accounting.count(Outcome.FAILED)).isEqualTo(20);
        assertThat(accounting.count(Outcome.TIMED_OUT)).isEqualTo(10);
    }

    @Test
    void should_send_a_closed_loop_follow_up_from_the_thread_that_saw_the_end_when_there_is_no_think_time() {
        List<StreamAttempt> started = new ArrayList<>();
        startFirstRequest(Load.concurrency(1).requests(2), recordingTransport(started, true));
        assertThat(started).hasSize(1);

        // The end arrives on this thread, with the scheduler standing still: the next request goes out before
        // the end's callback returns.
        started.get(0).onFailure(new IOException("protocol error"), scheduler.now());

        assertThat(started).hasSize(2);
        assertThat(started.get(1).requestIndex()).isEqualTo(1);
        assertThat(((MeasuredAttempt) started.get(1)).request().intendedNanos()).isEqualTo(scheduler.now());
    }

    @Test
    void should_leave_a_follow_up_to_the_scheduler_when_the_transport_cannot_start_it_cheaply_where_it_reads() {
        List<StreamAttempt> started = new ArrayList<>();
        startFirstRequest(Load.concurrency(1).requests(2), recordingTransport(started, false));

        started.get(0).onFailure(new IOException("protocol error"), scheduler.now());
        assertThat(started).hasSize(1);
        scheduler.runUntil(scheduler.now(), 10);

        assertThat(started).hasSize(2);
        assertThat(((MeasuredAttempt) started.get(1)).request().intendedNanos()).isEqualTo(START);
    }

    @Test
    void should_wait_for_the_scheduler_to_send_a_follow_up_after_think_time() {
        List<StreamAttempt> started = new ArrayList<>();
        startFirstRequest(
                Load.concurrency(1).requests(2).thinkTime(Duration.ofMillis(5)), recordingTransport(started, true));

        started.get(0).onFailure(new IOException("protocol error"), scheduler.now());
        assertThat(started).hasSize(1);
        scheduler.runUntil(START + 5 * MS, 10);

        assertThat(started).hasSize(2);
        assertThat(((MeasuredAttempt) started.get(1)).request().intendedNanos() - START)
                .isEqualTo(5 * MS);
    }

    @Test
    void should_end_every_request_of_a_closed_loop_whose_starts_all_fail_at_once_without_growing_the_stack() {
        // Each failed start ends its request, whose user at once sends the next on the same thread: 20,000 nested
        // calls would overflow the stack.
        Transport refusing = new Transport() {
            @Override
            public Exchange start(StreamAttempt attempt) {
                throw new IllegalArgumentException("invalid header value");
            }

            @Override
            public boolean startsOnReadThreadsCheaply() {
                return true;
            }

            @Override
            public void close() {}
        };
        RunRecorder recorder = RunEngine.recorder(spec(Load.concurrency(2).requests(20_000)));
        LoadDriver driver = RunEngine.driver(spec(Load.concurrency(2).requests(20_000)), scheduler, refusing, recorder);
        driver.start();
        scheduler.runUntilIdle(1_000_000);

        assertThat(driver.finished()).isDone();
        List<RequestRecord> records = recorder.snapshot().records();
        assertThat(records).hasSize(20_000);
        assertThat(records).extracting(RequestRecord::outcome).containsOnly(Outcome.FAILED);
        assertThat(records.get(19_999).errorDetail()).contains("invalid header value");
    }

    /** Starts a driver on the fake clock and runs only what is due at the start: the first requests' sends. */
    private void startFirstRequest(Load load, Transport transport) {
        RunEngine.driver(spec(load), scheduler, transport, RunEngine.recorder(spec(load)))
                .start();
        scheduler.runUntil(START, 10);
    }

    private static RunSpec spec(Load load) {
        return Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(4).outputTokens(3).build())
                .load(load)
                .build();
    }

    private static Transport recordingTransport(List<StreamAttempt> started, boolean startsCheaply) {
        return new Transport() {
            @Override
            public Exchange start(StreamAttempt attempt) {
                started.add(attempt);
                return () -> {};
            }

            @Override
            public boolean startsOnReadThreadsCheaply() {
                return startsCheaply;
            }

            @Override
            public void close() {}
        };
    }
}
