package dev.goodput.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.model.HostConfig;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.HttpWaitStrategy;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/** VllmContainer's configuration, read without a container engine: nothing here starts a container. */
class VllmContainerTest {

    private static final String SECRET = "hf_not_a_real_token_0123456789";

    private static VllmContainer configured(VllmContainer container) {
        container.configure();
        return container;
    }

    @Test
    void should_run_the_pinned_official_image_with_the_model_and_the_engine_arguments_in_order() {
        VllmContainer vllm = configured(new VllmContainer("Qwen/Qwen2.5-0.5B-Instruct")
                .withServedModelName("qwen")
                .withMaxModelLen(4096)
                .withGpuMemoryUtilization(0.85)
                .withMaxNumSeqs(64)
                .withMaxNumBatchedTokens(8192)
                .withPrefixCaching(false)
                .withDummyWeights()
                .withExtraArguments("--disable-log-requests"));

        assertThat(vllm.getImageName().asCanonicalNameString())
                .isEqualTo("vllm/vllm-openai:" + VllmContainer.DEFAULT_TAG);
        assertThat(vllm.getCommandParts())
                .containsExactly(
                        "--model",
                        "Qwen/Qwen2.5-0.5B-Instruct",
                        "--served-model-name",
                        "qwen",
                        "--max-model-len",
                        "4096",
                        "--gpu-memory-utilization",
                        "0.85",
                        "--max-num-seqs",
                        "64",
                        "--max-num-batched-tokens",
                        "8192",
                        "--no-enable-prefix-caching",
                        "--load-format",
                        "dummy",
                        "--disable-log-requests");
        assertThat(vllm.getExposedPorts()).containsExactly(VllmContainer.PORT);
        assertThat(vllm.getServedModelName()).isEqualTo("qwen");
        assertThat(vllm.getModel()).isEqualTo("Qwen/Qwen2.5-0.5B-Instruct");
    }

    @Test
    void should_serve_the_model_under_its_own_name_when_no_served_name_is_given() {
        VllmContainer vllm = configured(new VllmContainer("facebook/opt-125m"));

        assertThat(vllm.getCommandParts()).containsExactly("--model", "facebook/opt-125m");
        assertThat(vllm.getServedModelName()).isEqualTo("facebook/opt-125m");
    }

    @Test
    void should_keep_only_the_last_prefix_caching_choice() {
        VllmContainer vllm =
                configured(new VllmContainer("m").withPrefixCaching(false).withPrefixCaching(true));

        assertThat(vllm.getCommandParts()).containsExactly("--model", "m", "--enable-prefix-caching");
    }

    @Test
    void should_accept_another_tag_or_a_mirror_of_the_official_image() {
        VllmContainer vllm = new VllmContainer(
                DockerImageName.parse("registry.example/mirror/vllm-openai:v0.10.1")
                        .asCompatibleSubstituteFor("vllm/vllm-openai"),
                "m");

        assertThat(vllm.getImageName().asCanonicalNameString())
                .isEqualTo("registry.example/mirror/vllm-openai:v0.10.1");
    }

    @Test
    void should_reject_values_vllm_would_reject_before_any_container_starts() {
        assertThatThrownBy(() -> new VllmContainer(" ")).hasMessage("model must not be blank");
        assertThatThrownBy(() -> new VllmContainer("m").withMaxModelLen(0))
                .hasMessage("maxModelLen must be positive, was 0");
        assertThatThrownBy(() -> new VllmContainer("m").withGpuMemoryUtilization(1.5))
                .hasMessage("gpuMemoryUtilization must be in (0, 1], was 1.5");
    }

    @Test
    void should_wait_for_the_served_model_on_v1_models_with_a_startup_timeout_that_suits_model_loading() {
        VllmContainer vllm = configured(new VllmContainer("m").withServedModelName("served"));

        assertThat(vllm.getWaitStrategy())
                .isInstanceOf(HttpWaitStrategy.class)
                .hasFieldOrPropertyWithValue("path", "/v1/models")
                .hasFieldOrPropertyWithValue("startupTimeout", Duration.ofMinutes(20));
        assertThat(vllm.getWaitStrategy()).extracting("livenessPort").isEqualTo(Optional.of(VllmContainer.PORT));
    }

    @Test
    void should_apply_a_custom_startup_timeout_to_the_wait() {
        VllmContainer vllm = configured(new VllmContainer("m").withStartupTimeout(Duration.ofMinutes(45)));

        assertThat(vllm.getWaitStrategy()).hasFieldOrPropertyWithValue("startupTimeout", Duration.ofMinutes(45));
    }

    @Test
    void should_give_pytorch_gigabytes_of_shared_memory() {
        assertThat(new VllmContainer("m").getShmSize()).isEqualTo(8L * 1024 * 1024 * 1024);
    }

    @Test
    void should_request_every_gpu_only_when_asked() {
        HostConfig withoutAsking = applyModifiers(configured(new VllmContainer("m")));
        HostConfig asked = applyModifiers(configured(new VllmContainer("m").withGpus()));

        assertThat(withoutAsking.getDeviceRequests()).isNullOrEmpty();
        assertThat(asked.getDeviceRequests()).singleElement().satisfies(request -> {
            assertThat(request.getCount()).isEqualTo(-1);
            assertThat(request.getCapabilities()).isEqualTo(List.of(List.of("gpu")));
        });
    }

    @Test
    void should_mount_the_hugging_face_cache_where_vllm_looks_for_it() {
        VllmContainer vllm = configured(new VllmContainer("m").withHuggingFaceCache(Path.of("/srv/hf-cache")));

        assertThat(vllm.getBinds()).singleElement().satisfies(bind -> {
            assertThat(bind.getPath()).isEqualTo("/srv/hf-cache");
            assertThat(bind.getVolume().getPath()).isEqualTo("/root/.cache/huggingface");
        });
    }

    @Test
    void should_hand_the_token_over_as_a_file_and_never_put_it_in_the_containers_environment() {
        VllmContainer vllm =
                configured(new VllmContainer("m").withEnvironment(name -> name.equals("HF_TOKEN") ? SECRET : null));

        assertThat(vllm.getEnvMap()).containsEntry("HF_TOKEN_PATH", VllmContainer.TOKEN_FILE_IN_CONTAINER);
        assertThat(vllm.getEnvMap().values()).noneMatch(value -> value.contains(SECRET));
        assertThat(vllm.getEnvMap()).doesNotContainKey("HF_TOKEN");
        Transferable tokenFile = tokenFile(vllm);
        assertThat(new String(tokenFile.getBytes(), StandardCharsets.UTF_8)).isEqualTo(SECRET);
        assertThat(tokenFile.getFileMode()).isEqualTo(0400);
        assertThat(tokenFile.getDescription()).doesNotContain(SECRET);
        assertThat(vllm.toString()).doesNotContain(SECRET);
    }

    @Test
    void should_read_the_token_from_another_variable_when_told_and_send_none_when_it_is_unset() {
        VllmContainer named = configured(new VllmContainer("m")
                .withHuggingFaceTokenFrom("CI_HF_TOKEN")
                .withEnvironment(name -> name.equals("CI_HF_TOKEN") ? SECRET : null));
        VllmContainer unset = configured(new VllmContainer("m").withEnvironment(name -> null));

        assertThat(new String(tokenFile(named).getBytes(), StandardCharsets.UTF_8))
                .isEqualTo(SECRET);
        assertThat(unset.getEnvMap()).doesNotContainKey("HF_TOKEN_PATH");
        assertThat(filesToCopy(unset)).isEmpty();
    }

    @Test
    void should_record_image_tag_and_engine_arguments_as_metadata() {
        VllmContainer vllm = new VllmContainer("m").withMaxModelLen(2048);

        Map<String, Object> metadata = ContainerMetadata.of("vllm", vllm.getImageName(), vllm.getEngineArguments());

        assertThat(metadata)
                .containsEntry("server", "vllm")
                .containsEntry("container_image", "vllm/vllm-openai")
                .containsEntry("container_tag", VllmContainer.DEFAULT_TAG)
                .containsEntry("engine_args", List.of("--model", "m", "--max-model-len", "2048"));
    }

    @Test
    void should_refuse_an_endpoint_before_it_is_started() {
        assertThatThrownBy(() -> new VllmContainer("m").serverEndpoint())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not running");
    }

    private static Transferable tokenFile(VllmContainer vllm) {
        return filesToCopy(vllm).entrySet().stream()
                .filter(entry -> entry.getValue().equals(VllmContainer.TOKEN_FILE_IN_CONTAINER))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow();
    }

    /** What the container will copy in before it starts; Testcontainers keeps it package-private. */
    @SuppressWarnings("unchecked")
    private static Map<Transferable, String> filesToCopy(VllmContainer vllm) {
        try {
            Field field = GenericContainer.class.getDeclaredField("copyToTransferableContainerPathMap");
            field.setAccessible(true);
            return (Map<Transferable, String>) field.get(vllm);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Runs the container's create-command modifiers on a stand-in command that only keeps a host config. */
    private static HostConfig applyModifiers(VllmContainer vllm) {
        HostConfig hostConfig = new HostConfig();
        CreateContainerCmd command = (CreateContainerCmd) Proxy.newProxyInstance(
                CreateContainerCmd.class.getClassLoader(),
                new Class<?>[] {CreateContainerCmd.class},
                (proxy, method, arguments) -> {
                    if (method.getName().equals("getHostConfig")) {
                        return hostConfig;
                    }
                    return method.getReturnType().isInstance(proxy) ? proxy : null;
                });
        vllm.getCreateContainerCmdModifiers().forEach(modifier -> modifier.modify(command));
        return hostConfig;
    }
}
