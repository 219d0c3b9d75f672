package dev.goodput.realserver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Waits, before a class's tests, for the llama-server build that {@code .ci/setup-llama.sh --background} left
 * running ({@code GOODPUT_LLAMA_PENDING} names its directory), and disables the class with the reason when that
 * build failed, as the other conditions of {@link RequiresLlamaServer} do when nothing was set up. Without the
 * variable the server was set up before the build started, and nothing waits. A condition rather than a callback so
 * that the reason shows in the build's test counts as a skip.
 */
final class AwaitLlamaSetup implements ExecutionCondition {

    private static final String PENDING_VARIABLE = "GOODPUT_LLAMA_PENDING";

    /** Over twice what the build took beside Maven at idle priority on a 2-core machine (12 minutes). */
    private static final Duration LIMIT = Duration.ofMinutes(30);

    private static final Duration SAY_EVERY = Duration.ofMinutes(1);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        try {
            return await(System.getenv(PENDING_VARIABLE))
                    .map(ConditionEvaluationResult::disabled)
                    .orElse(ConditionEvaluationResult.enabled("llama-server is set up"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ConditionEvaluationResult.disabled("interrupted while waiting for the llama-server set-up");
        }
    }

    /**
     * Returns why llama-server is missing once the background set-up in {@code pending} has ended (or the limit has
     * passed), or nothing when it is there or nothing was pending.
     */
    private static synchronized Optional<String> await(String pending) throws InterruptedException {
        if (pending == null || pending.isBlank()) {
            return Optional.empty();
        }
        Path directory = Path.of(pending);
        long start = System.nanoTime();
        long nextWord = 0;
        while (!Files.exists(directory.resolve("done"))) {
            long waited = System.nanoTime() - start;
            if (waited > LIMIT.toNanos()) {
                return Optional.of("the background llama-server set-up did not end within " + LIMIT.toMinutes()
                        + " minutes (log: " + directory.resolve("log") + ")");
            }
            if (waited >= nextWord) {
                System.out.println("waiting for the background llama-server set-up, " + waited / 1_000_000_000L
                        + " s so far (log: " + directory.resolve("log") + ")");
                nextWord += SAY_EVERY.toNanos();
            }
            Thread.sleep(1000);
        }
        Path failure = directory.resolve("server-failed");
        if (Files.exists(failure)) {
            try {
                return Optional.of(
                        Files.readString(failure, StandardCharsets.UTF_8).strip());
            } catch (IOException e) {
                return Optional.of("the background llama-server set-up failed (" + failure + ")");
            }
        }
        return Optional.empty();
    }
}
