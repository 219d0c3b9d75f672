package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.TurnResults;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ConversationWorkloadTest {

    private static final long MS = 1_000_000;

    @Test
    void should_carry_the_growing_history_of_its_session_in_every_turn() {
        ConversationWorkload workload = ConversationWorkload.builder()
                .turns(3)
                .userTokens(LengthDistribution.fixed(10))
                .outputTokens(LengthDistribution.fixed(4))
                .build();
        RequestSpec first = workload.request(0, 5, 0);
        RequestSpec third = workload.request(1, 5, 2);
        assertThat(first.messages()).hasSize(1);
        assertThat(third.messages())
                .extracting(ChatMessage::role)
                .containsExactly("user", "assistant", "user", "assistant", "user");
        assertThat(third.messages().get(0)).isEqualTo(first.messages().get(0));
        assertThat(third.promptTokens()).isEqualTo(3 * 10 + 2 * 4);
        assertThat(workload.request(2, 6, 0).messages().get(0))
                .isNotEqualTo(first.messages().get(0));
    }

    @Test
    void should_send_each_sessions_turns_in_order_after_the_reply_and_the_think_time() throws Exception {
        ConversationWorkload workload = ConversationWorkload.builder()
                .turns(3)
                .userTokens(LengthDistribution.fixed(16))
                .outputTokens(LengthDistribution.fixed(3))
                .thinkTime(Duration.ofMillis(30))
                .build();
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(10), Duration.ofMillis(2))))) {
            RunResult result = Goodput.run(
                    ServerEndpoint.of(server.baseUrl(), server.modelName()),
                    workload,
                    Load.concurrency(1).requests(6));
            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(6);
            Map<Integer, RunResult> byTurn = TurnResults.split(result, workload);
            assertThat(byTurn.keySet()).containsExactly(1, 2, 3);
            byTurn.forEach(
                    (turn, turnResult) -> assertThat(turnResult.records()).hasSize(2));
            // Chat: every message's words plus 3 template tokens each, plus 3 for the reply's priming.
            Map<Integer, List<Integer>> promptsByTurn = result.records().stream()
                    .collect(Collectors.groupingBy(
                            r -> workload.turnOf(r.index()),
                            Collectors.mapping(RequestRecord::serverPromptTokens, Collectors.toList())));
            assertThat(promptsByTurn.get(1)).containsOnly(16 + 3 + 3);
            assertThat(promptsByTurn.get(3)).containsOnly(3 * 16 + 2 * 3 + 5 * 3 + 3);
            // One user: sessions run back to back, turns 1, 2, 3, 1, 2, 3.
            List<RequestRecord> records = result.records();
            assertThat(records).extracting(r -> workload.turnOf(r.index())).containsExactly(1, 2, 3, 1, 2, 3);
            for (int i = 1; i < records.size(); i++) {
                long pause = records.get(i).intendedNanos() - records.get(i - 1).endNanos();
                if (workload.turnOf(records.get(i).index()) > 1) {
                    assertThat(pause).isEqualTo(30 * MS);
                } else {
                    assertThat(pause).isZero();
                }
            }
        }
    }
}
