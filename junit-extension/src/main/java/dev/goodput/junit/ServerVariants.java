package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test's gate (its {@link LoadProfile}, {@link Workload} and {@link Slo}s, or its {@link LoadSweep} and
 * {@link MaxGoodputRate}) once per server variant, one variant after the other, each against its own server, and
 * writes one side-by-side comparison: the tuning decision record of which configuration met the objectives with
 * how much goodput. {@link #value()} names a method of the test class that returns the variants as a {@code
 * Stream}, a {@code Collection} or an array of {@link ServerVariant}.
 *
 * <p>Each variant's reports go to {@code <report dir>/<TestClass>/<method>/<variant>/}; the comparison is printed
 * as a Markdown table and written next to them as {@code variants.md}, {@code variants.csv} and {@code
 * variants.html}. A parameter of type {@link VariantResults} receives every variant's result. The variants'
 * servers replace any other server declaration for this method.
 */
@API(status = EXPERIMENTAL, since = "0.2")
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(GoodputExtension.class)
public @interface ServerVariants {

    /** The name of the method of the test class (static, or of the test instance) that returns the variants. */
    String value();

    /** Which variants must meet the gate for the test to pass. */
    Require require() default Require.ALL;

    /** Which variants must meet the gate for the test to pass. */
    @API(status = EXPERIMENTAL, since = "0.2")
    enum Require {
        /** Every variant must meet every objective: a regression gate over several configurations. */
        ALL,
        /** At least one variant must meet every objective: a tuning search for a configuration that works. */
        ANY
    }
}
