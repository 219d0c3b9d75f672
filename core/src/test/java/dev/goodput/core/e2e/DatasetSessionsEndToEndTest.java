package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.TurnResults;
import dev.goodput.core.workload.DatasetConversationWorkload;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.SessionWorkload;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replays recorded conversations in a closed loop against the simulated server: each virtual user's session
 * follows its conversation turn by turn, and the server sees the history grow.
 */
class DatasetSessionsEndToEndTest {

    private static final long MS = 1_000_000;

    @TempDir
    Path directory;

    /** The sample as a file: the transport-netty module runs these tests from core's test jar. */
    private Path sample() throws IOException {
        Path file = directory.resolve("sharegpt-multiturn.json");
        try (InputStream in = getClass().getResourceAsStream("/workload/sharegpt-multiturn.json")) {
            Files.copy(in, file);
        }
        return file;
    }

    /** Passes everything to the workload and notes which session each request belongs to. */
    private record SessionRecorder(SessionWorkload workload, Map<Long, Long> sessionOf) implements SessionWorkload {
        @Override
        public RequestSpec request(long index, long session, int turn) {
            sessionOf.put(index, session);
            return workload.request(index, session, turn);
        }

        @Override
        public int turnsOf(long session) {
            return workload.turnsOf(session);
        }

        @Override
        public Duration thinkTime() {
            return workload.thinkTime();
        }

        @Override
        public int turnOf(long index) {
            return workload.turnOf(index);
        }

        @Override
        public RequestSpec request(long index) {
            // The preflight probe; the closed loop itself asks for sessions' turns.
            return workload.request(index);
        }

        @Override
        public Map<String, Object> describe() {
            return workload.describe();
        }
    }

    @Test
    void should_run_each_users_session_turn_by_turn_with_the_history_growing_on_the_server() throws Exception {
        DatasetConversationWorkload workload = DatasetConversationWorkload.read(sample())
                .thinkTime(Duration.ofMillis(20))
                .build();
        SessionRecorder recorder = new SessionRecorder(workload, new ConcurrentHashMap<>());
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(1))))) {
            // Two users and 22 requests: sessions 0 to 7 hold 3+2+5+1 turns twice over, and a user takes the next
            // session when it finishes its own, so some sessions are cut by the request limit.
            RunResult result = Goodput.run(
                    ServerEndpoint.of(server.baseUrl(), server.modelName()),
                    recorder,
                    Load.concurrency(2).requests(22));

            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(22);
            Map<Long, List<RequestRecord>> bySession = new TreeMap<>();
            result.records().stream()
                    .sorted(Comparator.comparingLong(RequestRecord::intendedNanos))
                    .forEach(r -> bySession
                            .computeIfAbsent(recorder.sessionOf().get(r.index()), s -> new ArrayList<>())
                            .add(r));
            assertThat(bySession.keySet()).startsWith(0L, 1L, 2L);
            bySession.forEach((session, records) -> {
                List<Integer> turns =
                        records.stream().map(r -> workload.turnOf(r.index())).toList();
                assertThat(turns).as("turns of session %d", session).isEqualTo(oneTo(records.size()));
                assertThat(records.size()).isLessThanOrEqualTo(workload.turnsOf(session));
                for (int t = 0; t < records.size(); t++) {
                    RequestRecord record = records.get(t);
                    // The simulated server's chat template: 3 tokens per message, 3 to prime the reply.
                    int messages = workload.request(-1 - record.index(), session, t)
                            .messages()
                            .size();
                    assertThat(record.serverPromptTokens())
                            .as("server prompt of session %d turn %d", session, t + 1)
                            .isEqualTo(record.clientPromptTokens() + 3 * messages + 3);
                    assertThat(record.outputTokens())
                            .isEqualTo(workload.request(0, session, t).maxTokens());
                    if (t > 0) {
                        RequestRecord previous = records.get(t - 1);
                        assertThat(record.serverPromptTokens())
                                .as("history grows from turn %d to %d of session %d", t, t + 1, session)
                                .isGreaterThan(previous.serverPromptTokens() + previous.outputTokens());
                        assertThat(record.intendedNanos() - previous.endNanos()).isEqualTo(20 * MS);
                    }
                }
            });
            // Session 2 is the five-turn conversation: its prompts on the server, turn by turn.
            assertThat(bySession.get(2L))
                    .extracting(RequestRecord::serverPromptTokens)
                    .containsExactly(
                            5 + 6,
                            5 + 1 + 3 + 3 * 3 + 3,
                            5 + 1 + 3 + 2 + 1 + 5 * 3 + 3,
                            5 + 1 + 3 + 2 + 1 + 3 + 1 + 7 * 3 + 3,
                            5 + 1 + 3 + 2 + 1 + 3 + 1 + 4 + 2 + 9 * 3 + 3);
            assertThat(TurnResults.split(result, workload).keySet()).containsExactly(1, 2, 3, 4, 5);
        }
    }

    @Test
    void should_split_a_replayed_run_by_turn() throws Exception {
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(1))))) {
            ServerEndpoint endpoint = ServerEndpoint.of(server.baseUrl(), server.modelName());
            Path chats = sample();
            // tag::replay-sessions[]
            DatasetConversationWorkload workload = DatasetConversationWorkload.read(chats)
                    .maxTurns(4) // the first 4 turns of longer conversations
                    .minTurns(2) // conversations of 1 turn are skipped and counted
                    .outputTokensBetween(2, 64) // each turn asks for its recorded reply's length, within these
                    .thinkTime(Duration.ofMillis(10))
                    .shuffle(42)
                    .build();
            RunResult result =
                    Goodput.run(endpoint, workload, Load.concurrency(1).requests(9));
            Map<Integer, RunResult> byTurn = TurnResults.split(result, workload);
            // end::replay-sessions[]
            // One user, one round of the three sessions kept (3, 2 and 4 turns) in a shuffled order.
            assertThat(byTurn).hasSize(4);
            assertThat(byTurn.values()).extracting(r -> r.records().size()).containsExactly(3, 3, 2, 1);
            assertThat(workload.describe()).containsEntry("skipped", 6).containsEntry("conversations", 3);
            assertThat(result.records())
                    .allSatisfy(r -> assertThat(r.outputTokens()).isBetween(2, 64));
        }
    }

    private static List<Integer> oneTo(int n) {
        List<Integer> turns = new ArrayList<>();
        for (int t = 1; t <= n; t++) {
            turns.add(t);
        }
        return turns;
    }
}
