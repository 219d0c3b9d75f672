package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.InvalidSettingException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadMixTest {

    private static final WorkloadSpec CHAT =
            WorkloadSpec.synthetic().inputTokens(50).outputTokens(20).build();
    private static final WorkloadSpec RAG =
            WorkloadSpec.synthetic().inputTokens(2000).outputTokens(100).build();
    private static final WorkloadSpec BATCH =
            WorkloadSpec.synthetic().inputTokens(500).outputTokens(500).build();

    private static WorkloadMix mix(WorkloadMix.Selection selection, long seed) {
        return WorkloadMix.builder()
                .add("chat", 70, CHAT)
                .add("rag", 25, RAG)
                .add("batch", 5, BATCH)
                .selection(selection)
                .seed(seed)
                .build();
    }

    private static Map<String, Integer> count(WorkloadMix mix, long from, long to) {
        Map<String, Integer> counts = new HashMap<>();
        for (long index = from; index < to; index++) {
            counts.merge(mix.classOf(index).name(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void should_draw_classes_at_their_shares_and_the_same_for_the_same_seed() {
        WorkloadMix mix = mix(WorkloadMix.Selection.RANDOM, 7);
        Map<String, Integer> counts = count(mix, 0, 20_000);
        // Binomial standard deviation of the chat count: sqrt(20000 * 0.7 * 0.3) = 65, so 1 % (200) is 3 sigma.
        assertThat(counts.get("chat") / 20_000.0).isCloseTo(0.70, within(0.01));
        assertThat(counts.get("rag") / 20_000.0).isCloseTo(0.25, within(0.01));
        assertThat(counts.get("batch") / 20_000.0).isCloseTo(0.05, within(0.005));
        WorkloadMix again = mix(WorkloadMix.Selection.RANDOM, 7);
        WorkloadMix other = mix(WorkloadMix.Selection.RANDOM, 8);
        long differ = 0;
        for (long index = 0; index < 1_000; index++) {
            assertThat(again.classOf(index)).isEqualTo(mix.classOf(index));
            differ += other.classOf(index).equals(mix.classOf(index)) ? 0 : 1;
        }
        assertThat(differ).isGreaterThan(100);
    }

    @Test
    void should_deal_interleaved_classes_at_their_shares_in_every_stretch() {
        WorkloadMix mix = mix(WorkloadMix.Selection.INTERLEAVED, 0);
        for (long from = 0; from < 200; from += 7) {
            Map<String, Integer> counts = count(mix, from, from + 20);
            assertThat(counts.get("chat")).isBetween(13, 15);
            assertThat(counts.get("rag")).isBetween(4, 6);
            assertThat(counts.getOrDefault("batch", 0)).isBetween(0, 2);
        }
        assertThat(count(mix, 0, 100))
                .containsEntry("chat", 70)
                .containsEntry("rag", 25)
                .containsEntry("batch", 5);
    }

    @Test
    void should_build_each_request_with_its_class_workload_priority_and_headers() {
        WorkloadMix mix = WorkloadMix.builder()
                .add(TrafficClassSpec.of("chat", 1, CHAT).withPriority(0).withHeader("x-tenant", "support"))
                .add(TrafficClassSpec.of("rag", 1, RAG).withPriority(5))
                .selection(WorkloadMix.Selection.INTERLEAVED)
                .build();

        RequestSpec chat = mix.request(0);
        RequestSpec rag = mix.request(1);

        assertThat(chat.promptTokens()).isEqualTo(CHAT.request(0).promptTokens());
        assertThat(chat.messages()).isEqualTo(CHAT.request(0).messages());
        assertThat(chat.extraBody()).containsEntry("priority", 0);
        assertThat(chat.headers()).containsExactly(Map.entry("x-tenant", "support"));
        assertThat(rag.maxTokens()).isEqualTo(100);
        assertThat(rag.extraBody()).containsEntry("priority", 5);
        assertThat(rag.headers()).isEmpty();
        assertThat(mix.describe()).containsEntry("type", "mix");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> classes =
                (List<Map<String, Object>>) mix.describe().get("classes");
        assertThat(classes.get(0)).containsEntry("name", "chat").containsEntry("share", 0.5);
        // Header names are recorded, never their values (a tenant key may be secret).
        assertThat(classes.get(0).get("headers")).isEqualTo(List.of("x-tenant"));
        assertThat(classes.get(0).toString()).doesNotContain("support");
    }

    @Test
    void should_refuse_bad_classes_naming_the_field_and_value() {
        assertThatThrownBy(() -> TrafficClassSpec.of("chat room", 1, CHAT))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("workload class name")
                .hasMessageContaining("chat room");
        assertThatThrownBy(() -> TrafficClassSpec.of("chat", 0, CHAT))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("weight of workload class chat");
        assertThatThrownBy(() -> TrafficClassSpec.of("chat", 1, CHAT).withHeader("Authorization", "Bearer x"))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("Authorization");
        assertThatThrownBy(() -> TrafficClassSpec.of("chat", 1, CHAT).withHeader("x-tenant", "a\r\nb"))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("x-tenant")
                .hasMessageNotContaining("a\r\nb");
        assertThatThrownBy(() -> TrafficClassSpec.of(
                        "chat", 1, ConversationWorkload.builder().build()))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("cannot be mixed");
        assertThatThrownBy(() -> WorkloadMix.builder().add("chat", 1, CHAT).add("chat", 2, RAG))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("already a class");
        assertThatThrownBy(() -> WorkloadMix.builder().build())
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("at least one class");
    }
}
