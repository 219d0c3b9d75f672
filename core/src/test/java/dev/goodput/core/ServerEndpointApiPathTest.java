package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.workload.ApiKind;
import java.net.URI;
import org.junit.jupiter.api.Test;

class ServerEndpointApiPathTest {

    @Test
    void should_serve_the_api_under_v1_unless_told_otherwise() {
        ServerEndpoint endpoint = ServerEndpoint.of("http://127.0.0.1:8000/v1/", "m");

        assertThat(endpoint.baseUrl()).isEqualTo(URI.create("http://127.0.0.1:8000"));
        assertThat(endpoint.apiBasePath()).isEqualTo("/v1");
        assertThat(endpoint.apiUrl(ApiKind.CHAT.path()))
                .isEqualTo(URI.create("http://127.0.0.1:8000/v1/chat/completions"));
    }

    @Test
    void should_serve_the_api_at_the_root_or_under_a_gateway_path() {
        ServerEndpoint root = ServerEndpoint.of("http://127.0.0.1:8080", "m").withApiBasePath("");
        ServerEndpoint gateway = ServerEndpoint.of("http://127.0.0.1:8080", "m").withApiBasePath("/serving/openai/v1/");

        assertThat(root.apiUrl("/models")).isEqualTo(URI.create("http://127.0.0.1:8080/models"));
        assertThat(gateway.apiUrl(ApiKind.COMPLETIONS.path()))
                .isEqualTo(URI.create("http://127.0.0.1:8080/serving/openai/v1/completions"));
        assertThat(gateway.describe()).containsEntry("api_base_path", "/serving/openai/v1");
        assertThat(gateway.withApiKeyFromEnvironment("KEY").apiBasePath()).isEqualTo("/serving/openai/v1");
    }

    @Test
    void should_refuse_a_base_path_that_is_not_a_path_naming_the_setting_and_value() {
        for (String bad : new String[] {"v1", "/v1?x=1", "/v 1", "/v1#top"}) {
            assertThatThrownBy(() ->
                            ServerEndpoint.of("http://127.0.0.1:8080", "m").withApiBasePath(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("apiBasePath")
                    .hasMessageContaining("'" + bad + "'");
        }
    }
}
