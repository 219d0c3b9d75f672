package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.load.Load;
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
 * How hard to push and for how long; see {@link Load} for the exact semantics. Set
 * either {@link #rate()} (an open loop: arrivals on a schedule, whatever the server does) or
 * {@link #concurrency()} (a closed loop of virtual users), and at least one limit: {@link #requests()} or
 * {@link #durationSeconds()}. On the class, the default for every method; a method's own {@code @LoadProfile}
 * replaces it. A method without a load profile anywhere runs no load (it may still use a
 * {@link GoodputRunner}).
 *
 * <p>The configuration parameter {@code goodput.load.scale} multiplies {@link #requests()},
 * {@link #warmupRequests()}, {@link #cooldownRequests()} and every duration limit (not rates, concurrency or
 * timeouts): {@code -Dgoodput.load.scale=0.2} for a quick pull-request run, {@code 5} for a nightly one.
 *
 * <p>Zero means "not set" for every attribute but {@link #drainSeconds()}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag(GoodputTest.TAG)
@ResourceLock(GoodputTest.RESOURCE_LOCK)
@ExtendWith(GoodputExtension.class)
public @interface LoadProfile {

    /** The distribution of open-loop arrival gaps. */
    enum Arrivals {
        CONSTANT,
        POISSON,
        GAMMA
    }

    /** Open-loop mean arrival rate in requests/s. */
    double rate() default 0;

    /** The distribution of arrival gaps of an open loop. */
    Arrivals arrivals() default Arrivals.POISSON;

    /** The gamma shape for {@link Arrivals#GAMMA}: below 1 burstier than Poisson, above 1 more regular. */
    double burstiness() default 0;

    /** Closed-loop number of virtual users. */
    int concurrency() default 0;

    /** Open-loop cap on requests in flight; arrivals beyond it queue, and the wait is queue time. */
    int maxConcurrency() default 0;

    /** Closed-loop think time between a user's requests, in milliseconds. */
    long thinkTimeMillis() default 0;

    /**
     * {@link #requests()} that sizes the run for its objectives: the measured requests the strictest percentile
     * objective needs to be met (368 for a p99 at 95 %, 3,688 for a p99.9), plus {@link #warmupRequests()} and
     * {@link #cooldownRequests()} (and, for an open loop, rate x {@link #warmupSeconds()} and
     * {@link #cooldownSeconds()}). The count does not change with {@code goodput.load.scale}; a
     * {@link #durationSeconds()} stays a cap on time. See {@code Goodput.RunBuilder.sizeForObjectives()}.
     */
    long AUTO = -1;

    /** Stop creating requests after this many; {@link #AUTO} sizes the run for its percentile objectives. */
    long requests() default 0;

    /**
     * Makes the run last until its objectives are decided, {@link #requests()} being its maximum: it looks at its
     * objectives once this many measured requests have ended, then each time that count has doubled, and stops at
     * the first look where every objective is MET or VIOLATED. Each look judges on a wider interval, so that looking
     * repeatedly keeps the 95 % ({@code docs/metrics.md}, "Runs that last until decided"). 0 (the default): a run of
     * fixed length.
     */
    long untilDecidedFrom() default 0;

    /** Stop creating requests after this many seconds. */
    double durationSeconds() default 0;

    /** The first requests, sent but not measured. */
    long warmupRequests() default 0;

    /** Requests intended to start within this many seconds of the start are warm-up. */
    double warmupSeconds() default 0;

    /** The last requests (needs a request limit), sent but not measured. */
    long cooldownRequests() default 0;

    /** Requests intended to start within this many seconds of the end are cool-down. */
    double cooldownSeconds() default 0;

    /** Seconds to wait for stragglers after the last request was created before cancelling them. */
    double drainSeconds() default 30;

    /** The seed of the arrival gaps; recorded in the result. */
    long seed() default 0;

    /** A request without response headers this many seconds after sending times out. */
    double headersTimeoutSeconds() default 0;

    /** A request without a first token this many seconds after sending times out. */
    double firstTokenTimeoutSeconds() default 0;

    /** A request not finished this many seconds after sending times out; 0 keeps the default of 5 minutes. */
    double totalTimeoutSeconds() default 0;

    /**
     * Retries a request that failed before streaming anything (HTTP 408, 429, 5xx but 501, or no response) at
     * most this many times, up to 10. Off (0) by default, because a retry hides what a user of the server saw.
     * See {@link Load#retries(int)}.
     */
    int retries() default 0;

    /** The longest wait before a retry, a server's {@code Retry-After} included; 0 keeps the default of 10 s. */
    double maxRetryWaitSeconds() default 0;

    /**
     * Stops the run early once the server is plainly gone: {@value dev.goodput.core.RunSpec#SERVER_GONE_AFTER}
     * requests in a row found no server to connect to. The gate then fails saying so; every request created is
     * still counted. Off by default: the run sends its whole schedule, as k6 does without {@code abortOnFail}. See
     * {@link dev.goodput.core.Goodput.RunBuilder#stopWhenServerGone(boolean)}.
     */
    boolean stopWhenServerGone() default false;
}
