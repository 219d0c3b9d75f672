package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Runs the test's workload at several offered rates instead of one load profile, and injects the
 * {@link dev.goodput.core.sweep.SweepResult} into a parameter of that type. The {@link Slo}s define SLO
 * attainment; {@link MaxGoodputRate} turns the sweep into a gate. Give {@link #rates()}, or {@link #automatic()}
 * to spread rates between a one-at-a-time baseline and the saturated throughput; set {@link #resolution()} to
 * bracket and bisect for the max goodput rate after them.
 *
 * <pre>{@code
 * @GoodputTest
 * @Workload(inputTokens = 64, outputTokens = 64)
 * @Slo(metric = Metric.TTFT, percentile = 90, atMost = 250)
 * @LoadSweep(rates = {3, 6, 9, 12}, runSeconds = 8, resolution = 0.5)
 * @MaxGoodputRate(atLeast = 6)
 * void sustains_6_requests_per_second(SweepResult sweep) {}
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag(GoodputTest.TAG)
@ResourceLock(GoodputTest.RESOURCE_LOCK)
@ExtendWith(GoodputExtension.class)
public @interface LoadSweep {

    /** The offered rates in requests per second, run lowest first. */
    double[] rates() default {};

    /** In automatic mode, how many rates to spread between the probes; 0 for the given {@link #rates()}. */
    int automatic() default 0;

    /** The automatic mode's saturating probe: how many concurrent users (GuideLLM uses 512). */
    int saturationUsers() default 64;

    /** How many requests each automatic probe sends. */
    int probeRequests() default 50;

    /** How long each run at a rate sends load, in seconds. */
    double runSeconds() default 30;

    /**
     * How long each run warms up before its requests are measured, in seconds (0 for none): the first requests of
     * a JVM's first run are slow for reasons that have nothing to do with the server.
     */
    double warmupSeconds() default 0;

    /** How long a run waits for its last requests after the load ends, in seconds. */
    double drainSeconds() default 10;

    /** Whether arrivals are Poisson rather than evenly spaced. */
    boolean poisson() default false;

    /** The max-goodput search's resolution in requests per second; NaN (the default) for no search. */
    double resolution() default Double.NaN;

    /** The most runs the search may add. */
    int maxSearchRuns() default 6;

    /** The SLO attainment a rate must reach to count as sustainable (DistServe's 90 % by default). */
    double attainmentTarget() default 0.9;

    /** Whether to end an over-saturated run early (its queue keeps growing). */
    boolean overSaturationDetection() default true;

    /** The longest one run may take, in seconds. */
    double maxRunSeconds() default 300;

    /** The longest the whole sweep may take, in seconds. */
    double maxTotalSeconds() default 1800;

    /** The error rate above which a run fails and the higher rates are skipped. */
    double maxErrorRate() default 0.5;
}
