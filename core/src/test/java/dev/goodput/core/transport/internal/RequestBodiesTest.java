package dev.goodput.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.workload.ChatMessage;
import dev.goodput.core.workload.RequestSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestBodiesTest {

    private static String body(RequestSpec spec, boolean continuous) {
        return new String(RequestBodies.streamingBody(spec, "llama", continuous), StandardCharsets.UTF_8);
    }

    @Test
    void should_write_a_streaming_chat_body_with_usage_options_and_the_set_fields_only() {
        RequestSpec spec = RequestSpec.chat(List.of(ChatMessage.system("be brief"), ChatMessage.user("hi")), 64)
                .withMinTokens(64)
                .withIgnoreEos(true)
                .withTemperature(0)
                .withSeed(7);
        assertThat(body(spec, true))
                .isEqualTo("{\"model\":\"llama\",\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
                        + "{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":64,\"min_tokens\":64,"
                        + "\"ignore_eos\":true,\"temperature\":0.0,\"seed\":7,\"stream_options\":{\"include_usage\":true,"
                        + "\"continuous_usage_stats\":true},\"stream\":true}");
    }

    @Test
    void should_pass_extra_fields_through_but_never_turn_streaming_off() {
        RequestSpec spec =
                RequestSpec.completion("hello", 8).withExtraBody(Map.of("top_k", 5, "stream", false, "max_tokens", 9));
        assertThat(body(spec, false))
                .contains("\"prompt\":\"hello\"")
                .contains("\"top_k\":5")
                .contains("\"max_tokens\":9")
                .contains("\"stream_options\":{\"include_usage\":true}")
                .endsWith("\"stream\":true}")
                .doesNotContain("\"stream\":false")
                .doesNotContain("temperature");
    }

    @Test
    void should_write_a_body_without_extra_fields_byte_for_byte_as_the_map_path_does() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(15);
        String[] texts = {"", "hi", "caf\u00e9 \ud83d\ude00", "quote \" back \\ slash", "tab\tline\nend", "\u0001"};
        for (int round = 0; round < 500; round++) {
            String text = texts[random.nextInt(texts.length)];
            RequestSpec spec = random.nextBoolean()
                    ? RequestSpec.completion(text, 1 + random.nextInt(4096))
                    : RequestSpec.chat(
                            List.of(ChatMessage.system(texts[random.nextInt(texts.length)]), ChatMessage.user(text)),
                            1 + random.nextInt(4096));
            if (random.nextBoolean()) {
                spec = spec.withMinTokens(random.nextInt(spec.maxTokens() + 1));
            }
            if (random.nextBoolean()) {
                spec = spec.withIgnoreEos(random.nextBoolean());
            }
            if (random.nextBoolean()) {
                spec = spec.withTemperature(random.nextInt(3) == 0 ? 0 : random.nextDouble() * 2);
            }
            if (random.nextBoolean()) {
                spec = spec.withSeed(random.nextLong());
            }
            boolean continuous = random.nextBoolean();
            assertThat(new String(RequestBodies.writtenBody(spec, "m\u00f6del", continuous), StandardCharsets.UTF_8))
                    .as("round %d", round)
                    .isEqualTo(new String(
                            RequestBodies.mappedBody(spec, "m\u00f6del", continuous), StandardCharsets.UTF_8));
        }
    }
}
