package dev.goodput.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.mock.Fault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.utility.DockerImageName;

/** The simulated server container's command line, read without a container engine. */
class GoodputMockServerContainerConfigurationTest {

    @Test
    void should_pass_presets_limits_and_faults_as_the_mock_servers_own_options() {
        GoodputMockServerContainer server = new GoodputMockServerContainer(DockerImageName.parse("jre:17"))
                .withPreset("a100-llama3-8b")
                .withModelName("m")
                .withMaxNumSeqs(32)
                .withMaxNumBatchedTokens(4096)
                .withMaxModelLen(8192)
                .withPrefixCaching(false)
                .withSeed(7)
                .withFault(Fault.HTTP_503, 0.02)
                .withFault(Fault.STALL, 0.01)
                .withStallDuration(Duration.ofMillis(1500))
                .withRetryAfter(Duration.ofSeconds(2));

        assertThat(server.getServerArguments())
                .containsExactly(
                        "--host",
                        "0.0.0.0",
                        "--port",
                        "8000",
                        "--preset",
                        "a100-llama3-8b",
                        "--model",
                        "m",
                        "--max-num-seqs",
                        "32",
                        "--max-num-batched-tokens",
                        "4096",
                        "--max-model-len",
                        "8192",
                        "--no-enable-prefix-caching",
                        "--seed",
                        "7",
                        "--fault-http-503",
                        "0.02",
                        "--fault-stall",
                        "0.01",
                        "--fault-stall-ms",
                        "1500",
                        "--fault-retry-after",
                        "2");
        assertThat(server.getModelName()).isEqualTo("m");
    }

    @Test
    void should_replace_the_preset_with_fixed_timings() {
        GoodputMockServerContainer server = new GoodputMockServerContainer(DockerImageName.parse("jre:17"))
                .withPreset("fixed")
                .withFixedTimings(Duration.ofMillis(20), Duration.ofMillis(5));

        assertThat(server.getServerArguments())
                .containsExactly(
                        "--host", "0.0.0.0", "--port", "8000", "--fixed-ttft-ms", "20.0", "--fixed-tpot-ms", "5.0");
    }

    @Test
    void should_refuse_what_the_mock_server_would_refuse_before_any_container_starts() {
        GoodputMockServerContainer server = new GoodputMockServerContainer(DockerImageName.parse("jre:17"));

        assertThatThrownBy(() -> server.withPreset("no-such-preset")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.withFault(Fault.HTTP_500, 2))
                .hasMessage("a fault rate must be in [0, 1], was 2.0");
        assertThatThrownBy(() -> server.withOption("port", "9")).hasMessage("--port is set by the container");
    }

    @Test
    void should_run_the_server_from_the_test_classpath_by_default() {
        GoodputMockServerContainer server =
                new GoodputMockServerContainer(DockerImageName.parse("jre:17")).withPreset("fixed");
        server.configure();

        assertThat(server.getCommandParts()).startsWith("java", "-cp");
        assertThat(server.getCommandParts()[2]).startsWith("/goodput/lib/0-");
        assertThat(server.getCommandParts()[3]).isEqualTo("dev.goodput.mock.internal.cli.MockServerMain");
        assertThat(server.getCopyToFileContainerPathMap()).isNotEmpty();
    }

    @Test
    void should_run_a_given_runnable_jar_with_java_minus_jar(@TempDir Path folder) throws Exception {
        Path jar = Files.write(folder.resolve("goodput-mock-server.jar"), new byte[] {0});
        GoodputMockServerContainer server = new GoodputMockServerContainer(DockerImageName.parse("jre:17"))
                .withServerJar(jar)
                .withPreset("fixed");
        server.configure();

        assertThat(server.getCommandParts())
                .containsExactly(
                        "java",
                        "-jar",
                        "/goodput/goodput-mock-server.jar",
                        "--host",
                        "0.0.0.0",
                        "--port",
                        "8000",
                        "--preset",
                        "fixed");
        assertThat(server.getCopyToFileContainerPathMap()).containsValue("/goodput/goodput-mock-server.jar");
    }

    @Test
    void should_use_the_base_image_named_by_the_system_property() {
        String before = System.getProperty(GoodputMockServerContainer.BASE_IMAGE_PROPERTY);
        System.setProperty(GoodputMockServerContainer.BASE_IMAGE_PROPERTY, "localhost/some-jre:17");
        try {
            assertThat(new GoodputMockServerContainer().getBaseImage().asCanonicalNameString())
                    .isEqualTo("localhost/some-jre:17");
        } finally {
            if (before == null) {
                System.clearProperty(GoodputMockServerContainer.BASE_IMAGE_PROPERTY);
            } else {
                System.setProperty(GoodputMockServerContainer.BASE_IMAGE_PROPERTY, before);
            }
        }
    }
}
