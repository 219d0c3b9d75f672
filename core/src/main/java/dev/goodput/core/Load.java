package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How hard to push and for how long: an open-loop arrival schedule or a closed loop of virtual users, with
 * limits, warm-up, cool-down, a drain period and per-request timeouts. Immutable; each {@code withX}-style
 * method returns a validated copy.
 *
 * <pre>{@code
 * Load.poisson(8).requests(2000).warmupRequests(100);      // open loop, 8 req/s on average
 * Load.concurrency(16).duration(Duration.ofMinutes(2));     // closed loop, 16 users
 * }</pre>
 *
 * <p><b>Open loop.</b> Arrivals follow the schedule whatever the server does, so a slow server meets a
 * growing queue, as real users make one. Latencies are measured from each request's intended start, so a
 * client that cannot send on time, or a {@link #maxConcurrency(int) concurrency cap} that holds requests back,
 * shows up in TTFT and E2EL instead of being hidden (no coordinated omission). Gaps between arrivals are
 * constant, exponential (Poisson) or gamma-distributed with a burstiness factor (the gamma shape: below 1
 * burstier than Poisson, above 1 more regular; the mean gap is always {@code 1/rate}), drawn from a recorded
 * seed. The first arrival is at the start.
 *
 * <p><b>Closed loop.</b> Each virtual user sends a request, waits for it to end, waits the think time, and
 * sends the next. A request's intended start is when its user became free plus the think time.
 *
 * <p><b>Limits.</b> The schedule stops creating requests at the request limit or when the next intended start
 * would be at or after the duration limit, whichever comes first; at least one is required. Requests still
 * queued or in flight a {@link #drain(Duration) drain period} after the last creation are cancelled and counted
 * as {@link Outcome#CANCELLED}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Load {

    /** Open or closed loop. */
    public enum Mode {
        OPEN_LOOP,
        CLOSED_LOOP
    }

    /** The distribution of gaps between open-loop arrivals. */
    public enum Arrivals {
        CONSTANT,
        POISSON,
        GAMMA,
        /** The intended start times of a trace replayed by a {@link dev.goodput.core.workload.TimedWorkload}. */
        TRACE
    }

    private static final Duration DEFAULT_DRAIN = Duration.ofSeconds(30);
    private static final Duration DEFAULT_TOTAL_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration DEFAULT_MAX_RETRY_WAIT = Duration.ofSeconds(10);

    private final Mode mode;
    private final Arrivals arrivals;
    private final double rate;
    private final double burstiness;
    private final int concurrency;
    private final int maxConcurrency;
    private final Duration thinkTime;
    private final long requests;
    private final Duration duration;
    private final long warmupRequests;
    private final Duration warmup;
    private final long cooldownRequests;
    private final Duration cooldown;
    private final Duration drain;
    private final long seed;
    private final Duration headersTimeout;
    private final Duration firstTokenTimeout;
    private final Duration totalTimeout;
    private final int retries;
    private final Duration maxRetryWait;

    private Load(
            Mode mode,
            Arrivals arrivals,
            double rate,
            double burstiness,
            int concurrency,
            int maxConcurrency,
            Duration thinkTime,
            long requests,
            Duration duration,
            long warmupRequests,
            Duration warmup,
            long cooldownRequests,
            Duration cooldown,
            Duration drain,
            long seed,
            Duration headersTimeout,
            Duration firstTokenTimeout,
            Duration totalTimeout,
            int retries,
            Duration maxRetryWait) {
        this.mode = mode;
        this.arrivals = arrivals;
        this.rate = rate;
        this.burstiness = burstiness;
        this.concurrency = concurrency;
        this.maxConcurrency = maxConcurrency;
        this.thinkTime = thinkTime;
        this.requests = requests;
        this.duration = duration;
        this.warmupRequests = warmupRequests;
        this.warmup = warmup;
        this.cooldownRequests = cooldownRequests;
        this.cooldown = cooldown;
        this.drain = drain;
        this.seed = seed;
        this.headersTimeout = headersTimeout;
        this.firstTokenTimeout = firstTokenTimeout;
        this.totalTimeout = totalTimeout;
        this.retries = retries;
        this.maxRetryWait = maxRetryWait;
    }

    /** Open loop with a constant gap of {@code 1/requestsPerSecond} between arrivals. */
    public static Load constantRate(double requestsPerSecond) {
        return openLoop(Arrivals.CONSTANT, requestsPerSecond, 1.0);
    }

    /** Open loop with Poisson arrivals (exponential gaps) at the given mean rate. */
    public static Load poisson(double requestsPerSecond) {
        return openLoop(Arrivals.POISSON, requestsPerSecond, 1.0);
    }

    /**
     * Open loop with gamma-distributed gaps at the given mean rate. {@code burstiness} is the gamma shape: 1 is
     * Poisson, below 1 burstier, above 1 more regular (vLLM's {@code --burstiness}).
     */
    public static Load gamma(double requestsPerSecond, double burstiness) {
        if (!(burstiness > 0) || Double.isInfinite(burstiness)) {
            throw new IllegalArgumentException("burstiness must be a finite value above 0, was " + burstiness);
        }
        return openLoop(Arrivals.GAMMA, requestsPerSecond, burstiness);
    }

    /**
     * Open loop whose arrivals are the intended start times of a {@link dev.goodput.core.workload.TimedWorkload}
     * (a replayed trace); the run's workload must be one. Set a request limit no larger than the trace.
     */
    public static Load traceReplay() {
        return openLoop(Arrivals.TRACE, Double.NaN, Double.NaN);
    }

    /** Closed loop with the given number of concurrent virtual users. */
    public static Load concurrency(int users) {
        if (users < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, was " + users);
        }
        return initial(Mode.CLOSED_LOOP, null, Double.NaN, Double.NaN, users);
    }

    private static Load openLoop(Arrivals arrivals, double rate, double burstiness) {
        if (arrivals != Arrivals.TRACE && (!(rate > 0) || Double.isInfinite(rate))) {
            throw new IllegalArgumentException("rate must be a finite number of requests/s above 0, was " + rate);
        }
        return initial(Mode.OPEN_LOOP, arrivals, rate, burstiness, 0);
    }

    /** A profile with every optional setting at its default: no limits, no warm-up, default drain and timeout. */
    private static Load initial(Mode mode, Arrivals arrivals, double rate, double burstiness, int users) {
        return new Load(
                mode,
                arrivals,
                rate,
                burstiness,
                users,
                0,
                Duration.ZERO,
                0,
                null,
                0,
                Duration.ZERO,
                0,
                Duration.ZERO,
                DEFAULT_DRAIN,
                0,
                null,
                null,
                DEFAULT_TOTAL_TIMEOUT,
                0,
                DEFAULT_MAX_RETRY_WAIT);
    }

    /** Stops creating requests after this many (0 for no count limit). */
    public Load requests(long count) {
        requireNotNegative("requests", count);
        return copy(b -> b.requests = count);
    }

    /** Stops creating requests whose intended start would be at or after this much time from the start. */
    public Load duration(Duration value) {
        requirePositive("duration", value);
        return copy(b -> b.duration = value);
    }

    /** Treats the first {@code count} requests as warm-up: sent, counted, excluded from every metric. */
    public Load warmupRequests(long count) {
        requireNotNegative("warmupRequests", count);
        return copy(b -> b.warmupRequests = count);
    }

    /** Treats requests intended to start within this time of the start as warm-up. */
    public Load warmup(Duration value) {
        requireNotNegative("warmup", value);
        return copy(b -> b.warmup = value);
    }

    /** Treats the last {@code count} requests as cool-down; needs a request limit. */
    public Load cooldownRequests(long count) {
        requireNotNegative("cooldownRequests", count);
        return copy(b -> b.cooldownRequests = count);
    }

    /**
     * Treats requests intended to start within this time of the end of the load period as cool-down. The end
     * is the duration limit, or for an open loop with only a request limit, the last scheduled arrival.
     */
    public Load cooldown(Duration value) {
        requireNotNegative("cooldown", value);
        return copy(b -> b.cooldown = value);
    }

    /** How long after the last request was created to wait for stragglers before cancelling them (default 30 s). */
    public Load drain(Duration value) {
        requireNotNegative("drain", value);
        return copy(b -> b.drain = value);
    }

    /**
     * Caps the requests in flight in an open loop; arrivals beyond it wait in a first-come first-served queue,
     * and that wait counts as queue time (it is part of TTFT and E2EL).
     */
    public Load maxConcurrency(int value) {
        if (mode != Mode.OPEN_LOOP) {
            throw new IllegalArgumentException(
                    "maxConcurrency applies to an open loop; a closed loop's concurrency is its user count");
        }
        if (value < 1) {
            throw new IllegalArgumentException("maxConcurrency must be at least 1, was " + value);
        }
        return copy(b -> b.maxConcurrency = value);
    }

    /** Sets how long a closed-loop user waits after a request ends before sending the next. */
    public Load thinkTime(Duration value) {
        if (mode != Mode.CLOSED_LOOP) {
            throw new IllegalArgumentException("thinkTime applies to a closed loop (concurrency), not to an open loop");
        }
        requireNotNegative("thinkTime", value);
        return copy(b -> b.thinkTime = value);
    }

    /** Sets the seed of the arrival gaps (default 0); it is recorded in the result. */
    public Load seed(long value) {
        return copy(b -> b.seed = value);
    }

    /** Fails a request with {@link Outcome#TIMED_OUT} when its response headers take longer than this. */
    public Load headersTimeout(Duration value) {
        requirePositive("headersTimeout", value);
        return copy(b -> b.headersTimeout = value);
    }

    /** Fails a request with {@link Outcome#TIMED_OUT} when its first token takes longer than this after sending. */
    public Load firstTokenTimeout(Duration value) {
        requirePositive("firstTokenTimeout", value);
        return copy(b -> b.firstTokenTimeout = value);
    }

    /** Fails a request with {@link Outcome#TIMED_OUT} when it takes longer than this after sending (default 5 min). */
    public Load totalTimeout(Duration value) {
        requirePositive("totalTimeout", value);
        return copy(b -> b.totalTimeout = value);
    }

    /**
     * Retries a request that failed before it streamed anything, at most {@code maxRetries} times (default 0:
     * off). Off by default because a retry hides what a user of the server saw; turn it on to measure a
     * client that retries, as most SDKs do.
     *
     * <p>Retried: HTTP 408, 429, 500, 502, 503 and 504, and a connection that failed before any response.
     * Never retried: a timeout, a cancellation, any other status, or a failure after the first byte of the
     * stream (a retry would count the request's tokens twice). The wait honours a {@code Retry-After} of whole
     * seconds; without one it backs off 100 ms, 200 ms, 400 ms and so on. A wait longer than {@link
     * #maxRetryWait(Duration)} is not waited: the request keeps its failure. Each attempt gets its own timeouts,
     * the request's latencies still count from its intended start, and every earlier attempt is kept in
     * {@link RequestRecord#retriedAttempts()}.
     */
    public Load retries(int maxRetries) {
        if (maxRetries < 0 || maxRetries > 10) {
            throw new IllegalArgumentException("retries must be between 0 and 10, was " + maxRetries);
        }
        return copy(b -> b.retries = maxRetries);
    }

    /** The longest wait before a retry, including a server's {@code Retry-After} (default 10 s). */
    public Load maxRetryWait(Duration value) {
        requirePositive("maxRetryWait", value);
        return copy(b -> b.maxRetryWait = value);
    }

    /**
     * Returns a copy with request counts and durations multiplied by {@code factor} (rounded, at least 1
     * request where a count was set); rates, concurrency and timeouts stay. For quick pull-request runs and
     * long nightly runs of the same test.
     */
    public Load scaled(double factor) {
        if (!(factor > 0) || Double.isInfinite(factor)) {
            throw new IllegalArgumentException("scale factor must be a finite value above 0, was " + factor);
        }
        return copy(b -> {
            b.requests = scaleCount(requests, factor);
            b.warmupRequests = warmupRequests == 0 ? 0 : Math.round(warmupRequests * factor);
            b.cooldownRequests = cooldownRequests == 0 ? 0 : Math.round(cooldownRequests * factor);
            b.duration = duration == null ? null : scaleDuration(duration, factor);
            b.warmup = scaleDuration(warmup, factor);
            b.cooldown = scaleDuration(cooldown, factor);
        });
    }

    /**
     * Checks the combination of settings that single setters cannot check alone.
     *
     * @throws IllegalArgumentException naming the settings that do not fit together
     */
    public Load validate() {
        if (requests == 0 && duration == null) {
            throw new IllegalArgumentException("a load profile needs a limit: set requests(n), duration(d) or both");
        }
        if (requests > 0 && warmupRequests + cooldownRequests >= requests) {
            throw new IllegalArgumentException("warmupRequests (" + warmupRequests + ") + cooldownRequests ("
                    + cooldownRequests + ") leave no measured request of requests (" + requests + ")");
        }
        if (cooldownRequests > 0 && requests == 0) {
            throw new IllegalArgumentException(
                    "cooldownRequests (" + cooldownRequests + ") needs a request limit to know which are last");
        }
        if (cooldown.compareTo(Duration.ZERO) > 0 && duration == null && mode == Mode.CLOSED_LOOP) {
            throw new IllegalArgumentException("cooldown (" + cooldown
                    + ") in a closed loop needs a duration limit to know when the load period ends");
        }
        if (duration != null && warmup.plus(cooldown).compareTo(duration) >= 0) {
            throw new IllegalArgumentException("warmup (" + warmup + ") + cooldown (" + cooldown
                    + ") leave no measured time of duration (" + duration + ")");
        }
        return this;
    }

    public Mode mode() {
        return mode;
    }

    /** Returns the arrival distribution of an open loop, else {@code null}. */
    public Arrivals arrivals() {
        return arrivals;
    }

    /** Returns the mean arrival rate of an open loop in requests/s, else NaN. */
    public double rate() {
        return rate;
    }

    /** Returns the gamma shape of the arrival gaps (1 for Poisson), else NaN. */
    public double burstiness() {
        return burstiness;
    }

    /** Returns the number of closed-loop users, or 0 for an open loop. */
    public int concurrency() {
        return concurrency;
    }

    /** Returns the open-loop concurrency cap, or 0 for none. */
    public int maxConcurrency() {
        return maxConcurrency;
    }

    public Duration thinkTime() {
        return thinkTime;
    }

    /** Returns the request limit, or 0 for none. */
    public long requests() {
        return requests;
    }

    /** Returns the duration limit, or {@code null} for none. */
    public Duration duration() {
        return duration;
    }

    public long warmupRequests() {
        return warmupRequests;
    }

    public Duration warmup() {
        return warmup;
    }

    public long cooldownRequests() {
        return cooldownRequests;
    }

    public Duration cooldown() {
        return cooldown;
    }

    public Duration drain() {
        return drain;
    }

    public long seed() {
        return seed;
    }

    /** Returns the headers timeout, or {@code null} for none. */
    public Duration headersTimeout() {
        return headersTimeout;
    }

    /** Returns the first-token timeout, or {@code null} for none. */
    public Duration firstTokenTimeout() {
        return firstTokenTimeout;
    }

    /** Returns the total timeout, or {@code null} for none. */
    public Duration totalTimeout() {
        return totalTimeout;
    }

    /** Returns how often a failed request is retried (0: never, the default). */
    public int retries() {
        return retries;
    }

    /** Returns the longest wait before a retry. */
    public Duration maxRetryWait() {
        return maxRetryWait;
    }

    /** Describes this profile for the run's recorded configuration. */
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("mode", mode.name());
        if (mode == Mode.OPEN_LOOP) {
            d.put("arrivals", arrivals.name());
            if (arrivals != Arrivals.TRACE) {
                d.put("rate", rate);
                d.put("burstiness", burstiness);
            }
            d.put("max_concurrency", maxConcurrency);
        } else {
            d.put("concurrency", concurrency);
            d.put("think_time_ms", thinkTime.toMillis());
        }
        d.put("seed", seed);
        d.put("requests", requests);
        d.put("duration_ms", duration == null ? null : duration.toMillis());
        d.put("warmup_requests", warmupRequests);
        d.put("warmup_ms", warmup.toMillis());
        d.put("cooldown_requests", cooldownRequests);
        d.put("cooldown_ms", cooldown.toMillis());
        d.put("drain_ms", drain.toMillis());
        d.put("headers_timeout_ms", headersTimeout == null ? null : headersTimeout.toMillis());
        d.put("first_token_timeout_ms", firstTokenTimeout == null ? null : firstTokenTimeout.toMillis());
        d.put("total_timeout_ms", totalTimeout == null ? null : totalTimeout.toMillis());
        d.put("retries", retries);
        d.put("max_retry_wait_ms", maxRetryWait.toMillis());
        return d;
    }

    @Override
    public String toString() {
        String load = mode == Mode.OPEN_LOOP
                ? (arrivals == Arrivals.TRACE
                                ? "trace replay"
                                : arrivals.name().toLowerCase(java.util.Locale.ROOT) + " " + rate + " req/s")
                        + (maxConcurrency > 0 ? " (max " + maxConcurrency + " in flight)" : "")
                : concurrency + " concurrent users";
        String limit = (requests > 0 ? requests + " requests" : "")
                + (requests > 0 && duration != null ? ", " : "")
                + (duration != null ? "for " + duration : "");
        return load + ", " + limit + (retries > 0 ? ", up to " + retries + " retries" : "");
    }

    private static long scaleCount(long count, double factor) {
        return count == 0 ? 0 : Math.max(1, Math.round(count * factor));
    }

    private static Duration scaleDuration(Duration value, double factor) {
        return Duration.ofNanos(Math.round(value.toNanos() * factor));
    }

    private static void requireNotNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be at least 0, was " + value);
        }
    }

    private static void requireNotNegative(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }

    private static void requirePositive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    private Load copy(java.util.function.Consumer<Copy> change) {
        Copy b = new Copy(this);
        change.accept(b);
        return new Load(
                mode,
                arrivals,
                rate,
                burstiness,
                concurrency,
                b.maxConcurrency,
                b.thinkTime,
                b.requests,
                b.duration,
                b.warmupRequests,
                b.warmup,
                b.cooldownRequests,
                b.cooldown,
                b.drain,
                b.seed,
                b.headersTimeout,
                b.firstTokenTimeout,
                b.totalTimeout,
                b.retries,
                b.maxRetryWait);
    }

    /** The mutable fields of one copy, so each setter names only what it changes. */
    private static final class Copy {
        int maxConcurrency;
        Duration thinkTime;
        long requests;
        Duration duration;
        long warmupRequests;
        Duration warmup;
        long cooldownRequests;
        Duration cooldown;
        Duration drain;
        long seed;
        Duration headersTimeout;
        Duration firstTokenTimeout;
        Duration totalTimeout;
        int retries;
        Duration maxRetryWait;

        Copy(Load p) {
            maxConcurrency = p.maxConcurrency;
            thinkTime = p.thinkTime;
            requests = p.requests;
            duration = p.duration;
            warmupRequests = p.warmupRequests;
            warmup = p.warmup;
            cooldownRequests = p.cooldownRequests;
            cooldown = p.cooldown;
            drain = p.drain;
            seed = p.seed;
            headersTimeout = p.headersTimeout;
            firstTokenTimeout = p.firstTokenTimeout;
            totalTimeout = p.totalTimeout;
            retries = p.retries;
            maxRetryWait = p.maxRetryWait;
        }
    }
}
