package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.ApiKind;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * What each request of the run sends: a synthetic workload with fixed prompt and output lengths, prompts drawn
 * from a seeded word list (see {@link dev.goodput.core.SyntheticWorkload}). On the class, the default for every
 * method; a method's own {@code @Workload} replaces it. Without any, 256 input and 128 output tokens.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Workload {

    /** Prompt length in tokens (words under the simulated server's rule); at least 1. */
    int inputTokens() default 256;

    /** Output length, sent as {@code max_tokens}; at least 1. */
    int outputTokens() default 128;

    /** Chat completions (default) or plain completions. */
    ApiKind api() default ApiKind.CHAT;

    /** Whether to send {@code ignore_eos: true}, which pins the output length on vLLM. */
    boolean ignoreEos() default true;

    /** The seed of the prompt words. */
    long seed() default 0;
}
