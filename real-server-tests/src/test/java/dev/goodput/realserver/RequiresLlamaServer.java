package dev.goodput.realserver;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class only where {@code .ci/setup-llama.sh} has set up llama-server and the tiny model; elsewhere it
 * is skipped with the instruction to run that script. Where that script's build still runs in the background, the
 * class waits for it first ({@link AwaitLlamaSetup}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@EnabledIfEnvironmentVariable(
        named = LlamaServer.BINARY_VARIABLE,
        matches = ".+",
        disabledReason = LlamaServer.SKIP_REASON)
@EnabledIfEnvironmentVariable(
        named = LlamaServer.MODEL_VARIABLE,
        matches = ".+",
        disabledReason = LlamaServer.SKIP_REASON)
@EnabledIfEnvironmentVariable(
        named = LlamaServer.TOKENIZER_VARIABLE,
        matches = ".+",
        disabledReason = LlamaServer.SKIP_REASON)
@ExtendWith(AwaitLlamaSetup.class)
@interface RequiresLlamaServer {}
