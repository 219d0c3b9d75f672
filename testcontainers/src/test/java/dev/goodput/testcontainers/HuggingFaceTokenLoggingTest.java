package dev.goodput.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.command.InspectContainerResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * Starts a real container with VllmContainer's token handling and Testcontainers logging at debug level (see
 * this module's Surefire configuration), then reads the log: the token must reach the container and nothing
 * else. Runs a JRE image instead of vLLM, so it needs an engine but no GPU and no pull. The one logger left at
 * info is the HTTP transport's byte-level wire log, which prints whatever is sent, files included.
 */
@EnabledIfContainerEngine
class HuggingFaceTokenLoggingTest {

    private static final String SECRET = "hf_logging_probe_7c1e2b9d4a";

    /** VllmContainer's configuration, on a JRE image whose command exits at once. */
    static final class TokenOnlyContainer extends VllmContainer {
        TokenOnlyContainer() {
            super(
                    DockerImageName.parse(GoodputMockServerContainer.configuredBaseImage())
                            .asCompatibleSubstituteFor("vllm/vllm-openai"),
                    "probe");
            withEnvironment(name -> name.equals("HF_TOKEN") ? SECRET : null);
            withStartupCheckStrategy(new OneShotStartupCheckStrategy());
        }

        @Override
        protected void configure() {
            super.configure();
            setCommand("java", "-version");
            waitingFor(new AbstractWaitStrategy() {
                @Override
                protected void waitUntilReady() {}
            });
        }

        @Override
        protected void containerIsStarted(InspectContainerResponse containerInfo) {}
    }

    @Test
    void should_hand_the_token_to_the_container_without_writing_it_to_any_log() throws Exception {
        Path log = Path.of(System.getProperty("org.slf4j.simpleLogger.logFile", "target/testcontainers-debug.log"));
        String tokenInContainer;
        try (TokenOnlyContainer container = new TokenOnlyContainer()) {
            container.start();
            tokenInContainer = container.copyFileFromContainer(
                    VllmContainer.TOKEN_FILE_IN_CONTAINER, in -> new String(in.readAllBytes(), StandardCharsets.UTF_8));
            assertThat(container.getEnvMap()).containsKey("HF_TOKEN_PATH");
        }

        assertThat(tokenInContainer).isEqualTo(SECRET);
        String logged = Files.readString(log);
        assertThat(logged.contains("HF_TOKEN_PATH=" + VllmContainer.TOKEN_FILE_IN_CONTAINER))
                .as("the debug log shows the create command, environment included, so an HF_TOKEN variable would leak")
                .isTrue();
        assertThat(logged.contains(SECRET))
                .as("the token appears in the debug log " + log)
                .isFalse();
    }
}
