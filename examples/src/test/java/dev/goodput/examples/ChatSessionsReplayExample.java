package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.TPOT;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.TurnResults;
import dev.goodput.core.workload.DatasetConversationWorkload;
import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.SimulatedServer;
import dev.goodput.junit.Slo;
import dev.goodput.junit.Workload;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A chat gate replayed from recorded conversations: five ShareGPT-style chats of 2 to 4 turns (and one that
 * starts with the assistant, which is skipped and counted). Each of three virtual users replays a conversation
 * turn by turn, sending the whole history with the recorded replies, waits 50 ms after each reply, then takes the
 * next conversation.
 */
@GoodputTest
@SimulatedServer
class ChatSessionsReplayExample {

    @Test
    // tag::session-workload[]
    @Workload(dataset = "classpath:datasets/chat-sessions.json", turns = 4, thinkTimeMillis = 50)
    @LoadProfile(concurrency = 3, requests = 78, warmupRequests = 6)
    @Slo(metric = TTFT, percentile = 90, atMost = 200)
    @Slo(metric = TPOT, percentile = 90, atMost = 30)
    // end::session-workload[]
    void recorded_chats_replay_turn_by_turn_within_their_objectives(RunResult result) {
        var workload = (DatasetConversationWorkload) result.spec().workload();
        assertThat(workload.sessions()).isEqualTo(5);
        assertThat(workload.skipped()).isEqualTo(Map.of("not_alternating", 1));
        Map<Integer, RunResult> byTurn = TurnResults.split(result, workload);
        assertThat(byTurn.keySet()).containsExactly(1, 2, 3, 4);
        // Later turns carry the history, so the server sees longer prompts on average.
        assertThat(meanServerPrompt(byTurn.get(2))).isGreaterThan(meanServerPrompt(byTurn.get(1)));
    }

    private static double meanServerPrompt(RunResult result) {
        return result.records().stream()
                .mapToInt(RequestRecord::serverPromptTokens)
                .average()
                .orElseThrow();
    }
}
