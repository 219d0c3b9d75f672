package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DatasetConversationWorkloadTest {

    private static final Map<String, Integer> SKIPPED_IN_SAMPLE =
            Map.of("not_a_conversation", 1, "not_alternating", 2, "no_answered_user_turn", 1, "unknown_role", 1);

    static Path sample(String extension) {
        return Path.of("src/test/resources/workload/sharegpt-multiturn." + extension);
    }

    @ParameterizedTest
    @ValueSource(strings = {"json", "jsonl"})
    void should_keep_alternating_conversations_of_both_forms_and_count_the_skipped_ones_by_reason(String extension) {
        DatasetConversationWorkload workload =
                DatasetConversationWorkload.read(sample(extension)).build();
        assertThat(workload.sessions()).isEqualTo(4);
        // The last conversation's final question has no reply, so only its answered first turn is replayed.
        assertThat(LongStream.range(0, 4).mapToInt(workload::turnsOf)).containsExactly(3, 2, 5, 1);
        assertThat(workload.skipped()).isEqualTo(SKIPPED_IN_SAMPLE);
        assertThat(workload.describe())
                .containsEntry("type", "dataset_conversation")
                .containsEntry("conversations", 4)
                .containsEntry("turns", 11L)
                .containsEntry("skipped", 5)
                .containsEntry("skipped_by_reason", SKIPPED_IN_SAMPLE);
    }

    @Test
    void should_send_the_history_with_the_datasets_own_replies_and_ask_for_the_length_of_the_turns_reply() {
        DatasetConversationWorkload workload =
                DatasetConversationWorkload.read(sample("json")).build();
        RequestSpec first = workload.request(0, 0, 0);
        RequestSpec third = workload.request(1, 0, 2);
        assertThat(first.messages())
                .containsExactly(
                        ChatMessage.system("You are a terse travel agent."),
                        ChatMessage.user("Which city should I visit in spring?"));
        assertThat(first.promptTokens()).isEqualTo(6 + 7);
        assertThat(first.maxTokens()).isEqualTo(8); // "Kyoto, for the cherry blossoms along the river."
        assertThat(third.messages())
                .extracting(ChatMessage::role)
                .containsExactly("system", "user", "assistant", "user", "assistant", "user");
        assertThat(third.messages().get(2).content()).isEqualTo("Kyoto, for the cherry blossoms along the river.");
        assertThat(third.messages().get(5).content()).isEqualTo("And the best way to get there from Tokyo?");
        assertThat(third.promptTokens()).isEqualTo(6 + 7 + 8 + 7 + 11 + 9);
        assertThat(third.maxTokens()).isEqualTo(11);
        assertThat(workload.turnOf(0)).isEqualTo(1);
        assertThat(workload.turnOf(1)).isEqualTo(3);
        assertThat(workload.turnOf(2)).isZero();
        RequestSpec openAiForm = workload.request(2, 1, 1);
        assertThat(openAiForm.messages())
                .extracting(ChatMessage::content)
                .containsExactly("Name a prime number above ten.", "Eleven.", "And the next one after it?");
        assertThat(openAiForm.maxTokens()).isEqualTo(7);
    }

    @Test
    void should_floor_and_cap_the_output_lengths_and_limit_the_turns_kept() {
        DatasetConversationWorkload workload = DatasetConversationWorkload.read(sample("json"))
                .outputTokensBetween(3, 10)
                .maxTurns(2)
                .minTurns(2)
                .build();
        // The one-turn conversation is now too short; the others are cut after two turns.
        assertThat(workload.sessions()).isEqualTo(3);
        assertThat(LongStream.range(0, 3).mapToInt(workload::turnsOf)).containsExactly(2, 2, 2);
        assertThat(workload.skipped()).containsEntry("fewer_than_min_turns", 1);
        assertThat(workload.request(0, 2, 0).maxTokens()).as("\"One.\" floored").isEqualTo(3);
        assertThat(workload.request(1, 0, 1).maxTokens()).as("11 tokens capped").isEqualTo(10);
        assertThatThrownBy(() -> workload.request(2, 0, 2))
                .hasMessage("turn of session 0 must be between 0 and 1, was 2");
    }

    @Test
    void should_lay_the_sessions_turns_out_one_after_another_in_an_open_loop() {
        DatasetConversationWorkload workload =
                DatasetConversationWorkload.read(sample("json")).build();
        List<Integer> turns = new ArrayList<>();
        List<Integer> messages = new ArrayList<>();
        for (long i = 0; i < 13; i++) {
            messages.add(workload.request(i).messages().size());
            turns.add(workload.turnOf(i));
        }
        assertThat(turns).containsExactly(1, 2, 3, 1, 2, 1, 2, 3, 4, 5, 1, 1, 2);
        // System message plus two per earlier turn; past the last turn, the first conversation again.
        assertThat(messages).containsExactly(2, 4, 6, 1, 3, 1, 3, 5, 7, 9, 1, 2, 4);
        assertThat(workload.request(11)).isEqualTo(workload.request(0));
    }

    @Test
    void should_shuffle_the_conversations_with_the_seed_reproducibly() {
        List<List<Integer>> orders = new ArrayList<>();
        for (long seed : new long[] {1, 1, 2, 3, 4}) {
            DatasetConversationWorkload workload = DatasetConversationWorkload.read(sample("json"))
                    .shuffle(seed)
                    .build();
            orders.add(
                    LongStream.range(0, 4).mapToInt(workload::turnsOf).boxed().toList());
            assertThat(workload.describe()).containsEntry("shuffle", true).containsEntry("seed", seed);
        }
        assertThat(orders.get(0)).isEqualTo(orders.get(1)).containsExactlyInAnyOrder(3, 2, 5, 1);
        assertThat(orders).as("some seed leaves file order").anyMatch(order -> !order.equals(List.of(3, 2, 5, 1)));
    }

    @Test
    void should_join_the_history_into_one_prompt_for_completions() {
        DatasetConversationWorkload workload = DatasetConversationWorkload.read(sample("json"))
                .shape(new RequestShape(ApiKind.COMPLETIONS, true, 0.0, Map.of()))
                .thinkTime(Duration.ofMillis(250))
                .build();
        RequestSpec second = workload.request(0, 1, 1);
        assertThat(second.prompt()).isEqualTo("Name a prime number above ten.\nEleven.\nAnd the next one after it?");
        assertThat(second.promptTokens()).isEqualTo(6 + 1 + 6);
        assertThat(workload.thinkTime()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void should_fail_naming_the_file_when_no_conversation_is_left(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("broken.jsonl");
        Files.writeString(file, """
                {"conversations": [{"from": "gpt", "value": "Hi."}, {"from": "human", "value": "Hello."}]}
                {"messages": [{"role": "user", "content": "Anyone?"}]}
                """);
        assertThatThrownBy(() -> DatasetConversationWorkload.read(file).build())
                .isInstanceOf(WorkloadFileException.class)
                .hasMessage(file + ": holds no conversation to replay as a session (skipped: {no_answered_user_turn=1,"
                        + " not_alternating=1})");
        assertThatThrownBy(() -> DatasetConversationWorkload.read(sample("json"))
                        .minTurns(6)
                        .build())
                .hasMessageEndingWith("sharegpt-multiturn.json: holds no conversation to replay as a session (skipped:"
                        + " {fewer_than_min_turns=4, no_answered_user_turn=1, not_a_conversation=1, not_alternating=2,"
                        + " unknown_role=1})");
    }

    @Test
    void should_fail_on_syntax_errors_with_the_file_and_line(@TempDir Path dir) throws Exception {
        Path array = dir.resolve("cut.json");
        Files.writeString(array, "[\n{\"messages\": []},\n{\"messages\": [\n");
        assertThatThrownBy(() -> DatasetConversationWorkload.read(array))
                .isInstanceOf(WorkloadFileException.class)
                .hasMessageStartingWith(array + ":4: is not JSON: unexpected end of input")
                .hasMessageEndingWith(" at line 4, column 1")
                .hasMessageNotContaining("Source");
        Path lines = dir.resolve("bad.jsonl");
        Files.writeString(lines, "{\"messages\": []}\nnot json\n");
        assertThatThrownBy(() -> DatasetConversationWorkload.read(lines))
                .hasMessage(lines + ":2: is not JSON: unrecognized token 'not' at column 1: not json");
        Files.writeString(lines, "{\"messages\": []}\n{\"messages\": [x]}\n");
        assertThatThrownBy(() -> DatasetConversationWorkload.read(lines))
                .hasMessage(lines + ":2: is not JSON: unrecognized token 'x' at column 15: {\"messages\": [x]}");
        Files.writeString(lines, "{\"messages\": []}\n{\"messages\": [}\n");
        assertThatThrownBy(() -> DatasetConversationWorkload.read(lines))
                .hasMessage(lines + ":2: is not JSON: unexpected close marker '}': expected ']' at column 15:"
                        + " {\"messages\": [}");
        Files.writeString(lines, "{\"messages\": []}\n{\"messages\": [\n");
        assertThatThrownBy(() -> DatasetConversationWorkload.read(lines))
                .hasMessageStartingWith(lines + ":2: is not JSON: unexpected end of input")
                .hasMessageNotContaining("line: ")
                .hasMessageNotContaining("Source");
        assertThatThrownBy(() -> DatasetConversationWorkload.read(dir.resolve("none.json")))
                .hasMessage(dir.resolve("none.json") + ": no such file");
        assertThatThrownBy(() -> DatasetConversationWorkload.read(sample("json"))
                        .minTurns(3)
                        .maxTurns(2)
                        .build())
                .hasMessage("minTurns (3) must not exceed maxTurns (2)");
    }
}
