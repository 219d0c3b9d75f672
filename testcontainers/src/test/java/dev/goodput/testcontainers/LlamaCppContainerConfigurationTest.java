package dev.goodput.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.ServerEndpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.wait.strategy.HttpWaitStrategy;
import org.testcontainers.utility.DockerImageName;

/** LlamaCppContainer's configuration, read without a container engine: nothing here starts a container. */
class LlamaCppContainerConfigurationTest {

    @TempDir
    Path folder;

    private Path model() throws IOException {
        return Files.write(folder.resolve("tiny-llama.Q8_0.gguf"), new byte[] {'G', 'G', 'U', 'F'});
    }

    private static LlamaCppContainer configured(LlamaCppContainer container) {
        container.configure();
        return container;
    }

    @Test
    void should_run_the_pinned_official_server_image_with_address_model_alias_and_settings_in_order()
            throws IOException {
        LlamaCppContainer llama = configured(new LlamaCppContainer()
                .withModelFile(model())
                .withAlias("tiny")
                .withParallel(2)
                .withContextSize(2048)
                .withThreads(1)
                .withExtraArguments("--cache-reuse", "256"));

        assertThat(llama.getImageName().asCanonicalNameString())
                .isEqualTo("ghcr.io/ggml-org/llama.cpp:" + LlamaCppContainer.DEFAULT_TAG);
        assertThat(LlamaCppContainer.DEFAULT_TAG).matches("server-v\\d+\\.\\d+\\.\\d+");
        assertThat(llama.getCommandParts())
                .containsExactly(
                        "--host",
                        "0.0.0.0",
                        "--port",
                        "8080",
                        "-m",
                        "/models/tiny-llama.Q8_0.gguf",
                        "--alias",
                        "tiny",
                        "--metrics",
                        "--parallel",
                        "2",
                        "-c",
                        "2048",
                        "-t",
                        "1",
                        "--cache-reuse",
                        "256");
        assertThat(llama.getExposedPorts()).containsExactly(LlamaCppContainer.PORT);
    }

    @Test
    void should_mount_the_model_file_read_only_and_name_the_model_after_it() throws IOException {
        Path model = model();
        LlamaCppContainer llama = configured(new LlamaCppContainer().withModelFile(model));

        assertThat(llama.getAlias()).isEqualTo("tiny-llama.Q8_0");
        assertThat(llama.getBinds()).singleElement().satisfies(bind -> {
            assertThat(bind.getPath()).isEqualTo(model.toAbsolutePath().toString());
            assertThat(bind.getVolume().getPath()).isEqualTo("/models/tiny-llama.Q8_0.gguf");
            assertThat(bind.getAccessMode()).isEqualTo(BindMode.READ_ONLY.accessMode);
        });
    }

    @Test
    void should_let_llama_cpp_download_a_hugging_face_model_into_a_cache_the_host_keeps() {
        LlamaCppContainer llama = configured(new LlamaCppContainer()
                .withHuggingFaceModel("ggml-org/Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M")
                .withModelCache(folder.resolve("llama-cache")));

        assertThat(llama.getCommandParts())
                .containsSequence("-hf", "ggml-org/Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M")
                .doesNotContain("-m");
        assertThat(llama.getAlias()).isEqualTo("ggml-org/Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M");
        assertThat(llama.getEnvMap()).containsEntry("LLAMA_CACHE", LlamaCppContainer.CACHE_IN_CONTAINER);
        assertThat(llama.getBinds()).singleElement().satisfies(bind -> {
            assertThat(bind.getPath()).isEqualTo(folder.resolve("llama-cache").toString());
            assertThat(bind.getVolume().getPath()).isEqualTo(LlamaCppContainer.CACHE_IN_CONTAINER);
        });
    }

    @Test
    void should_turn_metrics_off_only_when_asked_and_keep_the_last_choice() throws IOException {
        LlamaCppContainer off = new LlamaCppContainer().withModelFile(model()).withMetrics(false);
        LlamaCppContainer onAgain = new LlamaCppContainer()
                .withModelFile(model())
                .withMetrics(false)
                .withMetrics(true);

        assertThat(off.getEngineArguments()).doesNotContain("--metrics");
        assertThat(onAgain.getEngineArguments()).containsOnlyOnce("--metrics");
    }

    @Test
    void should_keep_the_last_value_of_a_setting_given_twice() throws IOException {
        LlamaCppContainer llama =
                new LlamaCppContainer().withModelFile(model()).withParallel(2).withParallel(4);

        assertThat(llama.getEngineArguments())
                .containsSequence("--parallel", "4")
                .containsOnlyOnce("--parallel");
    }

    @Test
    void should_accept_a_local_build_declared_a_substitute_for_the_official_image() {
        LlamaCppContainer llama = new LlamaCppContainer(DockerImageName.parse("localhost/goodput-llama.cpp:server-b1")
                .asCompatibleSubstituteFor("ghcr.io/ggml-org/llama.cpp"));

        assertThat(llama.getImageName().asCanonicalNameString()).isEqualTo("localhost/goodput-llama.cpp:server-b1");
    }

    @Test
    void should_name_the_setting_and_the_value_when_refusing_one_before_any_container_starts() {
        LlamaCppContainer llama = new LlamaCppContainer();

        assertThatThrownBy(() -> llama.withParallel(0)).hasMessage("parallel must be at least 1, was 0");
        assertThatThrownBy(() -> llama.withContextSize(-1)).hasMessage("contextSize must be at least 1, was -1");
        assertThatThrownBy(() -> llama.withThreads(0)).hasMessage("threads must be at least 1, was 0");
        assertThatThrownBy(() -> llama.withAlias(" ")).hasMessage("alias must not be blank");
        assertThatThrownBy(() -> llama.withModelFile(folder.resolve("missing.gguf")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("modelFile must be an existing file, was " + folder.resolve("missing.gguf"));
        assertThatThrownBy(() -> llama.withModelFile(folder))
                .hasMessageStartingWith("modelFile must be an existing file, was ");
        assertThatThrownBy(() -> llama.withExtraArguments("--port", "9000"))
                .hasMessage("--port is set by the container; use its own method");
        assertThatThrownBy(() -> new LlamaCppContainer(DockerImageName.parse("vllm/vllm-openai:v0.11.0")))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void should_refuse_to_configure_without_a_model() {
        assertThatThrownBy(() -> new LlamaCppContainer().configure())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("no model: call withModelFile(Path) or withHuggingFaceModel(String)");
    }

    @Test
    void should_wait_for_health_with_a_startup_timeout_that_suits_loading_on_a_cpu() throws IOException {
        LlamaCppContainer llama = configured(new LlamaCppContainer().withModelFile(model()));
        LlamaCppContainer patient =
                configured(new LlamaCppContainer().withModelFile(model()).withStartupTimeout(Duration.ofMinutes(15)));

        assertThat(llama.readiness())
                .isInstanceOf(HttpWaitStrategy.class)
                .hasFieldOrPropertyWithValue("path", "/health")
                .hasFieldOrPropertyWithValue("startupTimeout", Duration.ofMinutes(5));
        assertThat(llama.readiness()).extracting("livenessPort").isEqualTo(Optional.of(LlamaCppContainer.PORT));
        assertThat(patient.readiness()).hasFieldOrPropertyWithValue("startupTimeout", Duration.ofMinutes(15));
    }

    @Test
    void should_describe_image_tag_engine_arguments_and_model_file_in_the_endpoint_metadata() throws IOException {
        LlamaCppContainer llama = new LlamaCppContainer().withModelFile(model()).withParallel(2);

        ServerEndpoint endpoint = llama.endpointAt("http://localhost:32768");

        assertThat(endpoint.model()).isEqualTo("tiny-llama.Q8_0");
        assertThat(endpoint.continuousUsageStats()).isFalse();
        assertThat(endpoint.metadata())
                .containsEntry("server", "llama.cpp")
                .containsEntry("container_image", "ghcr.io/ggml-org/llama.cpp")
                .containsEntry("container_tag", LlamaCppContainer.DEFAULT_TAG)
                .containsEntry(
                        "engine_args",
                        List.of(
                                "--host",
                                "0.0.0.0",
                                "--port",
                                "8080",
                                "-m",
                                "/models/tiny-llama.Q8_0.gguf",
                                "--alias",
                                "tiny-llama.Q8_0",
                                "--metrics",
                                "--parallel",
                                "2"))
                .containsEntry("model_file", "tiny-llama.Q8_0.gguf");
    }

    @Test
    void should_name_the_hugging_face_model_in_the_metadata_when_llama_cpp_downloads_it() {
        LlamaCppContainer llama = new LlamaCppContainer().withHuggingFaceModel("org/repo-GGUF:Q4_0");

        assertThat(llama.endpointAt("http://localhost:1").metadata())
                .containsEntry("huggingface_model", "org/repo-GGUF:Q4_0")
                .doesNotContainKey("model_file");
    }

    @Test
    void should_refuse_an_endpoint_before_it_is_started() throws IOException {
        assertThatThrownBy(() -> new LlamaCppContainer().withModelFile(model()).serverEndpoint())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not running");
    }
}
