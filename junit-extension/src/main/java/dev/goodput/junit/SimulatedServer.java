package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test against Goodput's simulated vLLM, embedded in the test JVM on a free loopback port. Without
 * any server declaration, this is what a {@link GoodputTest} uses, with the default preset.
 *
 * <p>On the class, one server is started before the first test and stopped after the last. On a method, the
 * method gets its own server. A method-level declaration wins over the class's.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(GoodputExtension.class)
public @interface SimulatedServer {

    /** The default preset: Llama 3 8B on an H100. */
    String DEFAULT_PRESET = "h100-llama3-8b";

    /**
     * The performance model preset, for example {@code "h100-llama3-8b"}, {@code "l4-llama3-8b"},
     * {@code "tiny-test"}, {@code "fixed"} or {@code "single-slot"}; see
     * {@link dev.goodput.mock.PerformanceModel#presetNames()}.
     */
    String preset() default DEFAULT_PRESET;

    /** The model name the server reports and expects; empty for the simulated server's default. */
    String modelName() default "";

    /** The seed of the server's random choices (output lengths, jitter, faults). */
    long seed() default 0;
}
