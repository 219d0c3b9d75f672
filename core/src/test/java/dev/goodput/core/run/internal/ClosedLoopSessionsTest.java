package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.testing.FakeScheduler;
import dev.goodput.core.testing.ScriptedTransport;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.SessionWorkload;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The closed-loop driver runs any {@link SessionWorkload}, each session for its own number of turns. */
class ClosedLoopSessionsTest {

    private static final long MS = 1_000_000;
    private static final long START = 5_000 * MS;

    /** Session {@code s} has {@code s + 1} turns; notes the session and turn of every request built. */
    private static final class GrowingSessions implements SessionWorkload {
        final Map<Long, List<Long>> sessionAndTurn = new ConcurrentHashMap<>();
        private final WorkloadSpec prompts =
                WorkloadSpec.synthetic().inputTokens(4).outputTokens(3).build();

        @Override
        public int turnsOf(long session) {
            return (int) session + 1;
        }

        @Override
        public RequestSpec request(long index, long session, int turn) {
            sessionAndTurn.put(index, List.of(session, (long) turn));
            return prompts.request(index);
        }

        @Override
        public Duration thinkTime() {
            return Duration.ofMillis(20);
        }

        @Override
        public int turnOf(long index) {
            return sessionAndTurn.get(index).get(1).intValue() + 1;
        }

        @Override
        public RequestSpec request(long index) {
            throw new AssertionError("a closed loop asks for a session's turn, not for request " + index);
        }

        @Override
        public Map<String, Object> describe() {
            return Map.of("type", "growing sessions");
        }
    }

    @Test
    void should_run_each_session_for_its_own_number_of_turns_with_the_turn_and_session_pauses() {
        FakeScheduler scheduler = new FakeScheduler(START);
        GrowingSessions workload = new GrowingSessions();
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(workload)
                .load(Load.concurrency(1).requests(6).thinkTime(Duration.ofMillis(50)))
                .preflight(false)
                .build();
        RunRecorder recorder = RunEngine.recorder(spec);
        LoadDriver driver = RunEngine.driver(
                spec,
                scheduler,
                new ScriptedTransport(scheduler, request -> ScriptedTransport.chatStream(80 * MS, 10 * MS, 3, 10)),
                recorder);
        driver.start();
        scheduler.runUntilIdle(1_000_000);

        List<RequestRecord> records = recorder.snapshot().records();
        assertThat(records)
                .extracting(r -> workload.sessionAndTurn.get(r.index()))
                .containsExactly(
                        List.of(0L, 0L),
                        List.of(1L, 0L),
                        List.of(1L, 1L),
                        List.of(2L, 0L),
                        List.of(2L, 1L),
                        List.of(2L, 2L));
        // A request takes 100 ms; 20 ms (the workload's think time) before a session's next turn, 50 ms (the
        // profile's) before a new session.
        assertThat(records)
                .extracting(r -> (r.intendedNanos() - START) / MS)
                .containsExactly(0L, 150L, 270L, 420L, 540L, 660L);
    }
}
