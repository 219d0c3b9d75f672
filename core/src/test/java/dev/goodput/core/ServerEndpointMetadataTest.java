package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerEndpointMetadataTest {

    @Test
    void metadata_appears_in_the_description_in_the_order_given() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("image", "vllm/vllm-openai:v0.11.0");
        metadata.put("engine_args", List.of("--max-model-len", "4096"));

        ServerEndpoint endpoint =
                ServerEndpoint.of("http://127.0.0.1:8000", "m").withMetadata(metadata);

        assertThat(endpoint.describe()).containsEntry("metadata", metadata);
        assertThat(endpoint.metadata().keySet()).containsExactly("image", "engine_args");
    }

    @Test
    void an_endpoint_without_metadata_describes_none() {
        assertThat(ServerEndpoint.of("http://127.0.0.1:8000", "m").describe()).doesNotContainKey("metadata");
    }

    @Test
    void metadata_survives_later_changes_and_cannot_be_changed_through_the_copy() {
        Map<String, Object> metadata = new LinkedHashMap<>(Map.of("image", "x"));
        ServerEndpoint endpoint = ServerEndpoint.of("http://127.0.0.1:8000", "m")
                .withMetadata(metadata)
                .withApiKeyFromEnvironment("KEY");
        metadata.put("image", "changed");

        assertThat(endpoint.metadata()).containsEntry("image", "x");
        assertThatThrownBy(() -> endpoint.metadata().put("y", 1)).isInstanceOf(UnsupportedOperationException.class);
    }
}
