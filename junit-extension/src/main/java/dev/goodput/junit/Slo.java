package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.slo.Metric;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An objective the run must meet, for example {@code @Slo(metric = TTFT, percentile = 99, atMost = 500)}.
 * Repeatable; every objective is judged and all of them appear in the failure message.
 *
 * <p>A latency objective names exactly one statistic: {@link #percentile()} (decimals allowed, above 0 and at
 * most 100), {@link #mean()} or {@link #max()}. A run-level metric ({@link Metric#GOODPUT},
 * {@link Metric#REQUEST_THROUGHPUT}, {@link Metric#ERROR_RATE}, ...) names none. Exactly one of
 * {@link #atMost()} and {@link #atLeast()} is set. Latency bounds are in {@link #unit()}; throughputs in
 * requests or tokens per second; ratios between 0 and 1.
 *
 * <p>Objectives on the class apply to every method; a method's objective on the same metric and statistic
 * replaces the class's.
 *
 * <p>A verdict is {@code INCONCLUSIVE} when the confidence interval straddles the bound or there are too few
 * samples for it. The configuration parameter {@code goodput.slo.inconclusive} decides what that does:
 * {@code fail} (default) or {@code warn} (report it and pass).
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Repeatable(Slos.class)
@ExtendWith(GoodputExtension.class)
public @interface Slo {

    /** The metric. */
    Metric metric();

    /** The percentile to bound, for example 99 or 99.9; unset (NaN) unless the statistic is a percentile. */
    double percentile() default Double.NaN;

    /** Bound the mean instead of a percentile. */
    boolean mean() default false;

    /** Bound the maximum instead of a percentile. */
    boolean max() default false;

    /** Upper bound; unset (NaN) for a lower bound. */
    double atMost() default Double.NaN;

    /** Lower bound; unset (NaN) for an upper bound. */
    double atLeast() default Double.NaN;

    /** Unit of a latency bound; another unit than the default on another metric fails the test. */
    TimeUnit unit() default TimeUnit.MILLISECONDS;

    /**
     * The {@link TrafficClass} whose requests alone the objective judges, for example {@code "chat"}; empty (the
     * default) for the whole run. A class's latency bound also decides which of its own requests are good.
     */
    String trafficClass() default "";
}
