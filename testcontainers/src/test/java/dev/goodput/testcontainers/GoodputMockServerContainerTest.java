package dev.goodput.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.goodput.core.ServerEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulated server in a real container; skipped where there is no container engine. */
@EnabledIfContainerEngine
class GoodputMockServerContainerTest {

    @Test
    void should_serve_the_configured_model_and_describe_the_container_in_its_endpoint() throws Exception {
        try (GoodputMockServerContainer server =
                new GoodputMockServerContainer().withPreset("fixed").withModelName("in-a-container")) {
            server.start();

            HttpResponse<String> models = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(server.getBaseUrl() + "/v1/models"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            ServerEndpoint endpoint = server.serverEndpoint();

            assertThat(models.statusCode()).isEqualTo(200);
            assertThat(models.body()).contains("\"in-a-container\"");
            assertThat(endpoint.model()).isEqualTo("in-a-container");
            assertThat(endpoint.baseUrl().getHost()).isEqualTo("localhost");
            assertThat(endpoint.metadata())
                    .containsEntry("server", "goodput-mock-server")
                    .containsKey("container_image")
                    .containsEntry("engine_args", server.getServerArguments());
        }
    }

    @Test
    void should_reset_the_server_in_the_container_through_its_reset_path() throws Exception {
        try (GoodputMockServerContainer server = new GoodputMockServerContainer().withPreset("fixed")) {
            server.start();
            HttpClient client = HttpClient.newHttpClient();
            URI completions = URI.create(server.getBaseUrl() + "/v1/completions");
            HttpResponse<String> completion = client.send(
                    HttpRequest.newBuilder(completions)
                            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + server.getModelName()
                                    + "\",\"prompt\":\"a b c\",\"max_tokens\":2}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            URI requests = URI.create(server.getBaseUrl() + "/debug/requests");
            String before = client.send(HttpRequest.newBuilder(requests).build(), HttpResponse.BodyHandlers.ofString())
                    .body();

            HttpResponse<String> reset = client.send(
                    HttpRequest.newBuilder(URI.create(server.getBaseUrl() + GoodputMockServerContainer.RESET_PATH))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            String after = client.send(HttpRequest.newBuilder(requests).build(), HttpResponse.BodyHandlers.ofString())
                    .body();

            assertThat(completion.statusCode()).isEqualTo(200);
            assertThat(before).contains("\"status\":200");
            assertThat(reset.statusCode()).isEqualTo(200);
            assertThat(reset.body()).isEqualTo("{\"reset\":true}");
            assertThat(after).contains("\"requests\":[]");
        }
    }

    @Test
    void should_run_the_runnable_jar_the_mock_server_module_builds() {
        Path jar = Path.of("..", "mock-server", "target", "goodput-mock-server.jar");
        assumeTrue(Files.isRegularFile(jar), "the mock-server module has not built " + jar + " yet");
        try (GoodputMockServerContainer server = new GoodputMockServerContainer()
                .withServerJar(jar)
                .withFixedTimings(Duration.ofMillis(5), Duration.ofMillis(1))) {
            server.start();

            assertThat(server.isRunning()).isTrue();
            assertThat(server.serverEndpoint().baseUrl().getPort()).isEqualTo(server.getMappedPort(8000));
        }
    }
}
