package dev.goodput.core.workload;

import static dev.goodput.core.workload.TraceReplayTest.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DatasetWorkloadTest {

    private final PromptTokenizer words = PromptTokenizer.simulated();

    @Test
    void should_take_the_first_human_turn_of_sharegpt_as_prompt_and_the_reply_length_as_output() {
        DatasetWorkload workload = DatasetWorkload.shareGpt(resource("sharegpt.json"), words, false)
                .build();
        assertThat(workload.size()).isEqualTo(3);
        RequestSpec first = workload.request(0);
        assertThat(first.messages()).containsExactly(ChatMessage.user("how do I sort a list in java quickly"));
        assertThat(first.maxTokens()).isEqualTo(10);
        assertThat(first.promptTokens()).isEqualTo(9);
        assertThat(workload.request(2).messages().get(0).content()).isEqualTo("name three prime numbers please");
        assertThat(workload.request(3)).isEqualTo(first);
    }

    @Test
    void should_apply_vllms_length_filters_when_asked() {
        // "hi" has fewer than 4 tokens and "two three five" has fewer than 4: both pruned.
        DatasetWorkload workload =
                DatasetWorkload.shareGpt(resource("sharegpt.json"), words, true).build();
        assertThat(workload.size()).isEqualTo(1);
    }

    @Test
    void should_read_prompts_and_messages_from_jsonl_with_optional_output_lengths() {
        DatasetWorkload workload = DatasetWorkload.jsonl(resource("dataset.jsonl"))
                .defaultOutputTokens(40)
                .build();
        assertThat(workload.request(0).maxTokens()).isEqualTo(12);
        RequestSpec chat = workload.request(1);
        assertThat(chat.messages()).hasSize(2);
        assertThat(chat.maxTokens()).isEqualTo(40);
        assertThat(chat.promptTokens()).isEqualTo(3 + 3);
        assertThat(workload.describe()).containsEntry("entries", 2).containsEntry("default_output_tokens", 40);
    }

    @Test
    void should_send_an_iterable_from_code_as_completions() {
        DatasetWorkload workload = DatasetWorkload.of(List.of(DatasetEntry.prompt("one two three", 5)))
                .shape(new RequestShape(ApiKind.COMPLETIONS, false, 0.7, Map.of()))
                .build();
        RequestSpec spec = workload.request(4);
        assertThat(spec.prompt()).isEqualTo("one two three");
        assertThat(spec.ignoreEos()).isFalse();
        assertThat(spec.promptTokens()).isEqualTo(3);
    }

    @Test
    void should_name_the_file_line_and_field_of_a_malformed_dataset() {
        assertThatThrownBy(() -> DatasetWorkload.jsonl(resource("bad-dataset.jsonl")))
                .isInstanceOf(WorkloadFileException.class)
                .hasMessageEndingWith(
                        "bad-dataset.jsonl:3: messages must be a non-empty array of {role, content}, was \"not an array\"");
    }
}
