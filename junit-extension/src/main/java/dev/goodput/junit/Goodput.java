package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * The run's goodput must be at least {@link #atLeast()} requests per second: requests that succeeded and met
 * every request-level objective (every {@link Slo} that is an upper bound on a per-request latency: TTFT,
 * TPOT, E2EL, ...), per second of the measurement window. The same as
 * {@code @Slo(metric = GOODPUT, atLeast = ...)}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Goodput {

    /** The least goodput, in requests per second. */
    double atLeast();
}
