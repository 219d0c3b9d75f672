package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.ab.ABRun;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Judges a candidate server against a baseline server in one run: the test's {@link Workload} and {@link
 * LoadProfile} (one block: its request limit is the block's length, its warm-up each block's) are offered in pairs
 * of blocks, one server at a time, in a balanced seeded order, until every change is decided or a regression is
 * found, or at {@link #maxPairs()} ({@link ABRun}, {@code docs/ci-gates.md}). The test fails when a change is
 * REGRESSED or the candidate misses an {@link Slo} (judged over its blocks pooled); an INCONCLUSIVE change passes
 * and says so.
 *
 * <p>{@link #baseline()} and {@link #candidate()} each name a method of the test class, static or of the test
 * instance, that returns one {@link ServerVariant}: a simulated configuration, a {@code StartableServer} such as a
 * container, or an endpoint someone else runs ({@code ServerVariant.of("main", ServerEndpoint.of(url, model))}).
 * Both servers are started before the first block and stopped after the last; they replace every other server
 * declaration for the method. The page is {@code gate.html} (with {@code gate.md} and {@code gate.json}) in the
 * test's report directory, each arm's own reports below it; a parameter of type {@link dev.goodput.core.ab.ABResult}
 * receives the result.
 *
 * <p>Why two named methods and not {@link ServerVariants} with roles: a variants test runs each configuration
 * whole and names the best, an A/B gate interleaves two and judges one against the other; naming both sides
 * says which is which where the test is read.
 */
@API(status = EXPERIMENTAL, since = "0.2")
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(GoodputExtension.class)
public @interface ABGate {

    /** The method that returns the baseline's {@link ServerVariant}, for a pull request main's server. */
    String baseline();

    /** The method that returns the candidate's {@link ServerVariant}, for a pull request the branch's server. */
    String candidate();

    /** The minimum practical change, a fraction above 0 and below 1. */
    double minimumChange() default ABRun.DEFAULT_MINIMUM_CHANGE;

    /** The pairs of blocks at the first look, at least 6. */
    int firstLookPairs() default ABRun.DEFAULT_FIRST_LOOK_PAIRS;

    /** The most pairs of blocks the run offers. */
    int maxPairs() default ABRun.DEFAULT_MAX_PAIRS;

    /** The seed of the block order. */
    long seed() default 0;
}
