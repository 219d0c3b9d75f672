package dev.goodput.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.workload.ConversationWorkload;
import dev.goodput.core.workload.DatasetConversationWorkload;
import dev.goodput.core.workload.DatasetWorkload;
import dev.goodput.core.workload.RandomWorkload;
import dev.goodput.core.workload.SyntheticWorkload;
import dev.goodput.core.workload.TraceWorkload;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

class WorkloadAnnotationTest {

    static class Gates {
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(rate = 1, requests = 1)
        void plain() {}

        @Workload(inputTokens = 8, outputTokens = 4, toolCalls = true)
        @LoadProfile(rate = 1, requests = 1)
        void tools() {}

        @Workload(api = dev.goodput.core.workload.ApiKind.COMPLETIONS, toolCalls = true)
        @LoadProfile(rate = 1, requests = 1)
        void toolsOnCompletions() {}

        @Workload(
                inputTokens = 1200,
                inputLengths = Workload.Lengths.UNIFORM,
                rangeRatio = 0.25,
                outputLengths = Workload.Lengths.LOG_NORMAL,
                tokenizer = "tiktoken:cl100k_base",
                prefix = Workload.Prefix.WARM,
                prefixTokens = 800,
                prefixGroups = 4)
        @LoadProfile(rate = 1, requests = 1)
        void rag() {}

        @Workload(trace = "classpath:workload/mooncake.jsonl", timeScale = 0.5)
        void mooncake() {}

        @Workload(trace = "src/test/resources/workload/azure.csv", traceRate = 10)
        void azure() {}

        @Workload(trace = "classpath:workload/burstgpt.csv")
        @LoadProfile(rate = 5, requests = 3)
        void traceWithLoad() {}

        @Workload(dataset = "classpath:workload/dataset.jsonl", outputTokens = 20)
        @LoadProfile(rate = 1, requests = 1)
        void dataset() {}

        @Workload(dataset = "classpath:workload/bad-dataset.jsonl")
        void badDataset() {}

        @Workload(trace = "no/such/trace.jsonl")
        void missingTrace() {}

        @Workload(turns = 4, thinkTimeMillis = 500, inputTokens = 32)
        @LoadProfile(rate = 1, requests = 1)
        void chat() {}

        @Workload(prefix = Workload.Prefix.WARM, prefixTokens = 300, inputTokens = 256)
        void prefixTooLong() {}

        @Workload(dataset = "classpath:workload/sharegpt-multiturn.json", turns = 2, thinkTimeMillis = 100)
        @LoadProfile(concurrency = 2, requests = 4)
        void sessions() {}

        @Workload(dataset = "classpath:workload/sharegpt-multiturn.json", turns = 2, vllmFilters = true)
        void sessionsWithVllmFilters() {}

        @Workload(dataset = "classpath:workload/sharegpt-multiturn.json", turns = 3, outputTokens = 64)
        void sessionsWithOutputTokens() {}

        @Workload(dataset = "classpath:workload/bad-dataset.jsonl", turns = 3)
        void sessionsFromSingleTurnFile() {}

        @Workload(trace = "classpath:workload/mooncake.jsonl", turns = 3)
        void traceWithTurns() {}

        @Workload(
                inputLengths = Workload.Lengths.EMPIRICAL,
                inputHistogramLengths = {100, 400},
                inputHistogramWeights = {3, 1},
                outputTokens = 16)
        @LoadProfile(rate = 1, requests = 1)
        void histogram() {}

        @Workload(
                inputLengths = Workload.Lengths.EMPIRICAL,
                inputHistogramLengths = {100, 400})
        void histogramWithoutWeights() {}

        @Workload(inputHistogramLengths = {100})
        void histogramWithoutEmpirical() {}
    }

    private static GateDefinition gate(String method) throws NoSuchMethodException {
        return GateDefinition.of(Gates.class, Gates.class.getDeclaredMethod(method), "Gates." + method + "()", 1.0);
    }

    @Test
    void should_keep_the_plain_synthetic_workload_when_only_lengths_are_given() throws Exception {
        assertThat(gate("plain").workload()).isInstanceOf(SyntheticWorkload.class);
    }

    @Test
    void should_send_the_lookup_tool_with_tool_choice_required_when_tool_calls_are_asked_for() throws Exception {
        var request = gate("tools").workload().request(0);
        assertThat(request.extraBody())
                .containsEntry("tools", java.util.List.of(dev.goodput.core.workload.RequestShape.LOOKUP_TOOL))
                .containsEntry("tool_choice", "required");
        assertThat(request.promptTokens()).isEqualTo(8);
        assertThat(request.maxTokens()).isEqualTo(4);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> gate("toolsOnCompletions"))
                .hasMessageContaining("tools need api CHAT (tool calls are a chat feature), was COMPLETIONS");
    }

    @Test
    void should_build_distributions_tokenizer_and_prefix_policy_and_record_them() throws Exception {
        var workload = gate("rag").workload();
        assertThat(workload).isInstanceOf(RandomWorkload.class);
        assertThat(workload.describe())
                .containsEntry("tokenizer", "tiktoken:cl100k_base")
                .containsEntry("prefix", Map.of("type", "warm", "warm_share", 1.0, "prefix_tokens", 800, "groups", 4));
        assertThat(workload.request(0).promptTokens()).isBetween(900, 1500);
    }

    @Test
    void should_replay_a_trace_at_its_own_arrival_times_scaled_as_asked() throws Exception {
        GateDefinition mooncake = gate("mooncake");
        assertThat(mooncake.workload()).isInstanceOf(TraceWorkload.class);
        assertThat(((TraceWorkload) mooncake.workload()).arrivalOffsetNanos(1)).isEqualTo(20_000_000L);
        assertThat(mooncake.load())
                .hasValueSatisfying(load -> assertThat(load.limits().requests()).hasValue(4));
        assertThat(gate("azure").workload().describe()).containsEntry("mean_rate", 10.0);
    }

    @Test
    void should_read_datasets_and_build_conversations() throws Exception {
        assertThat(gate("dataset").workload()).isInstanceOf(DatasetWorkload.class);
        assertThat(gate("dataset").workload().request(1).maxTokens()).isEqualTo(20);
        assertThat(gate("chat").workload()).isInstanceOfSatisfying(ConversationWorkload.class, c -> {
            assertThat(c.turns()).isEqualTo(4);
            assertThat(c.thinkTime().toMillis()).isEqualTo(500);
        });
    }

    @Test
    void should_replay_a_datasets_conversations_as_sessions_of_at_most_turns_turns() throws Exception {
        assertThat(gate("sessions").workload()).isInstanceOfSatisfying(DatasetConversationWorkload.class, w -> {
            assertThat(w.sessions()).isEqualTo(4);
            assertThat(w.turnsOf(0)).isEqualTo(2);
            assertThat(w.turnsOf(3)).isEqualTo(1);
            assertThat(w.thinkTime().toMillis()).isEqualTo(100);
            assertThat(w.describe()).containsEntry("max_turns", 2).containsEntry("skipped", 5);
        });
    }

    @Test
    void should_reject_options_that_do_not_apply_to_replayed_sessions_naming_the_attribute_and_value() {
        assertThatThrownBy(() -> gate("sessionsWithVllmFilters"))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("@Workload on Gates.sessionsWithVllmFilters(): vllmFilters = true applies to single-turn"
                        + " ShareGPT prompts, not to conversations replayed as sessions (turns = 2)");
        assertThatThrownBy(() -> gate("sessionsWithOutputTokens"))
                .hasMessage("@Workload on Gates.sessionsWithOutputTokens(): outputTokens = 64 does not apply to"
                        + " conversations replayed as sessions (turns = 3): each turn asks for the length of the"
                        + " dataset's reply to it");
        assertThatThrownBy(() -> gate("sessionsFromSingleTurnFile"))
                .hasMessageStartingWith("@Workload on Gates.sessionsFromSingleTurnFile(): ")
                .hasMessageEndingWith("bad-dataset.jsonl: holds no conversation to replay as a session (skipped:"
                        + " {not_a_conversation=3})");
        assertThatThrownBy(() -> gate("traceWithTurns"))
                .hasMessage("@Workload on Gates.traceWithTurns(): turns (3) makes conversations; it cannot be"
                        + " combined with a trace file (trace = \"classpath:workload/mooncake.jsonl\")");
    }

    @Test
    void should_fail_before_any_load_naming_the_file_line_and_reason() {
        assertThatThrownBy(() -> gate("badDataset"))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessageStartingWith("@Workload on Gates.badDataset(): ")
                .hasMessageEndingWith(
                        "bad-dataset.jsonl:3: messages must be a non-empty array of {role, content}, was \"not an array\"");
        assertThatThrownBy(() -> gate("missingTrace"))
                .hasMessage("@Workload on Gates.missingTrace(): no/such/trace.jsonl: no such file");
        assertThatThrownBy(() -> gate("traceWithLoad"))
                .hasMessageContaining("a trace replays its own arrival times; remove it");
        assertThatThrownBy(() -> gate("prefixTooLong"))
                .hasMessageContaining("prefix of 300 tokens leaves no own token to the shortest prompt");
    }

    @Test
    void should_draw_prompt_lengths_from_an_empirical_histogram() throws Exception {
        var workload = gate("histogram").workload();
        int short_ = 0;
        for (long i = 0; i < 400; i++) {
            int tokens = workload.request(i).promptTokens();
            assertThat(tokens).isIn(100, 400);
            if (tokens == 100) {
                short_++;
            }
        }
        // Weights 3:1, so about 300 of 400 are short; a fixed seed makes this exact run to run.
        assertThat(short_).isBetween(260, 340);
    }

    @Test
    void should_reject_a_histogram_without_weights_or_without_the_empirical_shape() {
        assertThatThrownBy(() -> gate("histogramWithoutWeights"))
                .hasMessageEndingWith("inputLengths = EMPIRICAL needs inputHistogramLengths and inputHistogramWeights"
                        + " of the same, non-zero size (were 2 and 0)");
        assertThatThrownBy(() -> gate("histogramWithoutEmpirical"))
                .hasMessageEndingWith("inputHistogramLengths and inputHistogramWeights apply to inputLengths ="
                        + " EMPIRICAL, not FIXED");
    }
}
