package dev.goodput.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.utility.DockerImageName;

/**
 * A real llama.cpp server in a container, measured by a small Goodput run. It needs a container engine, a
 * llama.cpp server image ({@code GOODPUT_LLAMA_IMAGE}, which {@code .ci/setup-llama-image.sh} builds locally)
 * and a GGUF model ({@code GOODPUT_LLAMA_MODEL}, from {@code .ci/setup-llama.sh}); without them it is skipped.
 */
@EnabledIfContainerEngine
class LlamaCppContainerTest {

    private static final int REQUESTS = 20;
    private static final int OUTPUT_TOKENS = 16;

    /**
     * Where {@code .ci/setup-llama.sh --background} still builds the server and its image, waits for it (up to 30
     * minutes, outside the test's own timeout) and skips with the reason if the image could not be built. The same
     * wait as real-server-tests' {@code AwaitLlamaSetup}, whose module this one does not see.
     */
    @BeforeAll
    static void awaitBackgroundSetup() throws Exception {
        String pending = System.getenv("GOODPUT_LLAMA_PENDING");
        if (pending == null || pending.isBlank()) {
            return;
        }
        Path directory = Path.of(pending);
        long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
        for (int seconds = 0; !Files.exists(directory.resolve("done")); seconds++) {
            assumeTrue(System.nanoTime() < deadline, "the background llama-server set-up did not end within 30 min");
            if (seconds % 60 == 0) {
                System.out.println("waiting for the background llama-server set-up, " + seconds + " s so far (log: "
                        + directory.resolve("log") + ")");
            }
            Thread.sleep(1000);
        }
        Path failure = directory.resolve("image-failed");
        assumeTrue(!Files.exists(failure), () -> readQuietly(failure));
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return "the background llama-server set-up failed (" + file + ")";
        }
    }

    @Test
    @Timeout(120)
    void should_serve_a_small_load_on_the_cpu_with_every_request_complete_and_the_image_recorded() {
        String image = System.getenv("GOODPUT_LLAMA_IMAGE");
        String model = System.getenv("GOODPUT_LLAMA_MODEL");
        assumeTrue(
                image != null && !image.isBlank(),
                "GOODPUT_LLAMA_IMAGE is not set; eval \"$(bash .ci/setup-llama-image.sh)\" builds a local image");
        assumeTrue(
                model != null && Files.isRegularFile(Path.of(model)),
                "GOODPUT_LLAMA_MODEL does not name a GGUF file; eval \"$(bash .ci/setup-llama.sh)\" fetches one");
        DockerImageName imageName = DockerImageName.parse(image).asCompatibleSubstituteFor(LlamaCppContainer.IMAGE);

        try (LlamaCppContainer llama = new LlamaCppContainer(imageName)
                .withModelFile(Path.of(model))
                .withAlias("tiny")
                .withParallel(2)
                .withContextSize(2048)
                .withThreads(1)
                .withStartupTimeout(Duration.ofMinutes(1))) {
            llama.start();
            ServerEndpoint endpoint = llama.serverEndpoint();

            // Synthetic workloads send ignore_eos: true, which llama.cpp honours, so a random model's early
            // end-of-sequence token does not cut an output short.
            RunResult result = Goodput.newRun(endpoint)
                    .workload(WorkloadSpec.synthetic()
                            .inputTokens(32)
                            .outputTokens(OUTPUT_TOKENS)
                            .seed(1)
                            .build())
                    // No retries: llama-server closes the connection after every stream, and a request that meets
                    // such a connection in the pool is sent again as a connection retry, not a failure.
                    .load(Load.concurrency(2).requests(REQUESTS))
                    .run();
            System.out.print(ConsoleReport.format(result));

            assertThat(result.accounting().scheduled()).isEqualTo(REQUESTS);
            assertThat(result.accounting().count(Outcome.SUCCESS))
                    .as("successes; failures: %s", result.failures())
                    .isEqualTo(REQUESTS);
            assertThat(result.records())
                    .allSatisfy(record -> assertThat(record.attempts()).isEqualTo(1));
            assertThat(result.records())
                    .filteredOn(record -> record.phase() == Phase.MEASURED)
                    .isNotEmpty()
                    .extracting(RequestRecord::outputTokens)
                    .containsOnly(OUTPUT_TOKENS);
            assertThat(result.tokens().shorterThanAsked()).isZero();
            assertThat(result.spec().server().metadata())
                    .containsEntry("server", "llama.cpp")
                    .containsEntry("container_image", imageName.getUnversionedPart())
                    .containsEntry("container_tag", imageName.getVersionPart())
                    .containsEntry("model_file", Path.of(model).getFileName().toString());
        }
    }
}
