package dev.goodput.core.load;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.internal.Settings;
import dev.goodput.core.internal.Units;
import dev.goodput.core.record.Outcome;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * How hard to push and for how long: {@link Arrivals} (an open-loop schedule or closed-loop users), the {@link
 * Limits} of the schedule, of its warm-up and of its cool-down, a drain period, and the {@link RequestPolicy}
 * of every request. Immutable; every method returns a checked copy, so a {@code Load} that exists is valid and
 * always has a limit.
 *
 * <pre>{@code
 * Load.poisson(8).requests(2000).warmupRequests(100);      // open loop, 8 req/s on average
 * Load.concurrency(16).duration(Duration.ofMinutes(2));     // closed loop, 16 users
 * }</pre>
 *
 * <p><b>Limits.</b> The schedule stops creating requests at the request limit or when the next intended start
 * would be at or after the duration limit, whichever comes first. The warm-up is the first requests by count or
 * intended start (sent, counted, excluded from every metric); the cool-down the last by count or by intended
 * start within that time of the end of the load period (the duration limit, or for an open loop with only a
 * request limit, the last scheduled arrival). Requests still queued or in flight a {@link #drain(Duration)
 * drain period} after the last creation are cancelled and counted as {@link Outcome#CANCELLED}.
 *
 * <p>Settings are checked as they are set and name themselves when refused ({@link InvalidSettingException});
 * settings that need one another are checked as soon as both are there, so set the schedule's limits before
 * its warm-up and cool-down.
 *
 * <p>Longer than 300 lines because it is the one place a user looks for every load setting: each setter is a
 * documented one-line copy, and the checks of the settings that need one another sit beside them.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Load {

    private static final Duration DEFAULT_DRAIN = Duration.ofSeconds(30);

    private final Arrivals arrivals;
    private final Limits limits;
    private final Limits warmup;
    private final Limits cooldown;
    private final Duration drain;
    private final OptionalInt maxConcurrency;
    private final RequestPolicy requestPolicy;
    private final long firstLookRequests;

    private Load(
            Arrivals arrivals,
            Limits limits,
            Limits warmup,
            Limits cooldown,
            Duration drain,
            OptionalInt maxConcurrency,
            RequestPolicy requestPolicy,
            long firstLookRequests) {
        this.arrivals = Objects.requireNonNull(arrivals, "arrivals");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.warmup = Objects.requireNonNull(warmup, "warmup");
        this.cooldown = Objects.requireNonNull(cooldown, "cooldown");
        this.drain = Settings.notNegative("drain", drain);
        this.maxConcurrency = Objects.requireNonNull(maxConcurrency, "maxConcurrency");
        this.requestPolicy = Objects.requireNonNull(requestPolicy, "requestPolicy");
        this.firstLookRequests = firstLookRequests;
        checkTogether();
    }

    /** Open-loop arrivals with a constant gap of {@code 1/requestsPerSecond}. */
    public static Arrivals.Constant constantRate(double requestsPerSecond) {
        return new Arrivals.Constant(requestsPerSecond);
    }

    /** Open-loop Poisson arrivals (exponential gaps) at the given mean rate, seed 0. */
    public static Arrivals.Poisson poisson(double requestsPerSecond) {
        return new Arrivals.Poisson(requestsPerSecond, 0);
    }

    /**
     * Open-loop arrivals with gamma-distributed gaps at the given mean rate, seed 0. {@code burstiness} is the
     * gamma shape: 1 is Poisson, below 1 burstier, above 1 more regular (vLLM's {@code --burstiness}).
     */
    public static Arrivals.Gamma gamma(double requestsPerSecond, double burstiness) {
        return new Arrivals.Gamma(requestsPerSecond, burstiness, 0);
    }

    /** Open-loop arrivals at the intended start times of a replayed trace (the run's workload must be one). */
    public static Arrivals.TraceTimes traceReplay() {
        return new Arrivals.TraceTimes();
    }

    /** Closed-loop arrivals from the given number of users, with no think time. */
    public static Arrivals.ClosedLoop concurrency(int users) {
        return new Arrivals.ClosedLoop(users, Duration.ZERO);
    }

    /** A load of the given arrivals within the given limits, with no warm-up or cool-down and the defaults. */
    public static Load of(Arrivals arrivals, Limits limits) {
        return new Load(
                arrivals,
                limits,
                Limits.none(),
                Limits.none(),
                DEFAULT_DRAIN,
                OptionalInt.empty(),
                RequestPolicy.DEFAULT,
                0);
    }

    /** Returns this load with other arrivals (for example the same schedule at another rate). */
    public Load arrivals(Arrivals value) {
        return new Load(value, limits, warmup, cooldown, drain, maxConcurrency, requestPolicy, firstLookRequests);
    }

    /** Stops creating requests after {@code count} requests (at least 1). */
    public Load requests(long count) {
        return limits(limits.withRequests(count));
    }

    /**
     * Makes the run last until every objective is decided, between a minimum and a maximum: it looks at its
     * objectives once {@code minRequests} measured requests have ended, then each time that count has doubled, and
     * last at the maximum; it stops creating requests at the first look where every interval lies wholly on one side
     * of its bound, or where one objective is VIOLATED (the gate fails whatever the others would say). Each look uses a wider interval than a single look would, so that looking repeatedly keeps the
     * run's overall confidence ({@code docs/metrics.md#runs-that-last-until-decided}). A run that reaches its
     * maximum undecided ends INCONCLUSIVE and says roughly how many more requests would decide it. The requests
     * still in flight when a look decides are sent, counted and excluded as the run's cool-down, so a run that
     * stops early sets no cool-down of its own.
     *
     * @param minRequests the measured requests of the first look, at least 1
     * @param maxRequests the request limit, warm-up included as always; the last look is at every measured request
     */
    public Load untilDecided(long minRequests, long maxRequests) {
        Settings.atLeast("minRequests", minRequests, 1);
        Settings.atLeast("maxRequests", maxRequests, 1);
        return new Load(
                arrivals,
                limits.withRequests(maxRequests),
                warmup,
                cooldown,
                drain,
                maxConcurrency,
                requestPolicy,
                minRequests);
    }

    /** Returns the run to a fixed length: it ends at its limits, whatever its objectives say. */
    public Load fixedLength() {
        return new Load(arrivals, limits, warmup, cooldown, drain, maxConcurrency, requestPolicy, 0);
    }

    /** Stops creating requests whose intended start would be at or after this much time from the start. */
    public Load duration(Duration value) {
        return limits(limits.withDuration(value));
    }

    /** Replaces the schedule's limits; at least one must be set. */
    public Load limits(Limits value) {
        return new Load(arrivals, value, warmup, cooldown, drain, maxConcurrency, requestPolicy, firstLookRequests);
    }

    /** Treats the first {@code count} requests as warm-up: sent, counted, excluded from every metric (0: none). */
    public Load warmupRequests(long count) {
        Settings.atLeast("warmupRequests", count, 0);
        return warmup(count == 0 ? warmup.withoutRequests() : warmup.withRequests(count));
    }

    /** Treats requests intended to start within this time of the start as warm-up (zero: none). */
    public Load warmup(Duration value) {
        Settings.notNegative("warmup", value);
        return warmup(value.isZero() ? warmup.withoutDuration() : warmup.withDuration(value));
    }

    /** Replaces the warm-up's limits ({@link Limits#none()}: no warm-up). */
    public Load warmup(Limits value) {
        return new Load(arrivals, limits, value, cooldown, drain, maxConcurrency, requestPolicy, firstLookRequests);
    }

    /** Treats the last {@code count} requests as cool-down (0: none); needs a request limit. */
    public Load cooldownRequests(long count) {
        Settings.atLeast("cooldownRequests", count, 0);
        return cooldown(count == 0 ? cooldown.withoutRequests() : cooldown.withRequests(count));
    }

    /** Treats requests intended to start within this time of the end of the load period as cool-down. */
    public Load cooldown(Duration value) {
        Settings.notNegative("cooldown", value);
        return cooldown(value.isZero() ? cooldown.withoutDuration() : cooldown.withDuration(value));
    }

    /** Replaces the cool-down's limits ({@link Limits#none()}: no cool-down). */
    public Load cooldown(Limits value) {
        return new Load(arrivals, limits, warmup, value, drain, maxConcurrency, requestPolicy, firstLookRequests);
    }

    /** How long after the last request was created to wait for stragglers before cancelling them (default 30 s). */
    public Load drain(Duration value) {
        return new Load(arrivals, limits, warmup, cooldown, value, maxConcurrency, requestPolicy, firstLookRequests);
    }

    /**
     * Caps the requests in flight in an open loop; arrivals beyond it wait in a first-come first-served queue,
     * and that wait counts as queue time (it is part of TTFT and E2EL).
     */
    public Load maxConcurrency(int value) {
        Settings.atLeast("maxConcurrency", value, 1);
        return new Load(
                arrivals, limits, warmup, cooldown, drain, OptionalInt.of(value), requestPolicy, firstLookRequests);
    }

    /** Sets how long a closed-loop user waits after a request ends before sending the next. */
    public Load thinkTime(Duration value) {
        if (!(arrivals instanceof Arrivals.ClosedLoop users)) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("thinkTime") + " applies to a closed loop (concurrency), not to " + arrivals,
                    "thinkTime");
        }
        return arrivals(users.thinkTime(value));
    }

    /** Sets the seed of random arrival gaps (Poisson or gamma). */
    public Load seed(long value) {
        if (arrivals instanceof Arrivals.Poisson poisson) {
            return arrivals(poisson.seed(value));
        }
        if (arrivals instanceof Arrivals.Gamma gamma) {
            return arrivals(gamma.seed(value));
        }
        throw InvalidSettingException.conflict(
                name -> name.apply("seed") + " applies to random arrivals (poisson or gamma), not to " + arrivals,
                "seed");
    }

    /** Replaces the request policy. */
    public Load requestPolicy(RequestPolicy value) {
        return new Load(arrivals, limits, warmup, cooldown, drain, maxConcurrency, value, firstLookRequests);
    }

    /** Fails a request with {@link Outcome#TIMED_OUT} when its response headers take longer than this. */
    public Load headersTimeout(Duration value) {
        return requestPolicy(requestPolicy.withHeadersTimeout(value));
    }

    /** Fails a request with {@link Outcome#TIMED_OUT} when its first token takes longer than this after sending. */
    public Load firstTokenTimeout(Duration value) {
        return requestPolicy(requestPolicy.withFirstTokenTimeout(value));
    }

    /** Fails a request with {@link Outcome#TIMED_OUT} when it takes longer than this after sending (default 5 min). */
    public Load totalTimeout(Duration value) {
        return requestPolicy(requestPolicy.withTotalTimeout(value));
    }

    /** Retries a request that failed before it streamed anything, at most this often (0 to 10; see {@link RequestPolicy}). */
    public Load retries(int maxRetries) {
        return requestPolicy(requestPolicy.withRetries(maxRetries));
    }

    /** The longest wait before a retry, including a server's {@code Retry-After} (default 10 s). */
    public Load maxRetryWait(Duration value) {
        return requestPolicy(requestPolicy.withMaxRetryWait(value));
    }

    /**
     * Returns a copy with request counts and durations multiplied by {@code factor}: the schedule's limits stay
     * set (at least 1 request), a warm-up or cool-down that rounds to nothing is dropped; rates, users, timeouts
     * and the drain stay. For quick pull-request runs and long nightly runs of the same test.
     */
    public Load scaled(double factor) {
        Settings.positiveFinite("scale", factor);
        return new Load(
                arrivals,
                limits.scaled(factor, true),
                warmup.scaled(factor, false),
                cooldown.scaled(factor, false),
                drain,
                maxConcurrency,
                requestPolicy,
                firstLookRequests == 0 ? 0 : Math.max(1, Math.round(firstLookRequests * factor)));
    }

    /** Returns how requests arrive. */
    public Arrivals arrivals() {
        return arrivals;
    }

    /** Returns the schedule's limits; at least one is set. */
    public Limits limits() {
        return limits;
    }

    /** Returns the warm-up's limits ({@link Limits#none()} for no warm-up). */
    public Limits warmup() {
        return warmup;
    }

    /** Returns the cool-down's limits ({@link Limits#none()} for no cool-down). */
    public Limits cooldown() {
        return cooldown;
    }

    /** Returns how long stragglers are waited for after the last creation. */
    public Duration drain() {
        return drain;
    }

    /** Returns the open-loop concurrency cap, if any. */
    public OptionalInt maxConcurrency() {
        return maxConcurrency;
    }

    /**
     * Returns the measured requests of a run's first look when it lasts until decided ({@link #untilDecided}), empty
     * for a run of fixed length.
     */
    public OptionalLong firstLookRequests() {
        return firstLookRequests == 0 ? OptionalLong.empty() : OptionalLong.of(firstLookRequests);
    }

    /** Returns what the client does for each request: timeouts and retries. */
    public RequestPolicy requestPolicy() {
        return requestPolicy;
    }

    /** Describes this load for the run's recorded configuration. */
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>(arrivals.describe());
        if (arrivals.isOpenLoop()) {
            d.put("max_concurrency", maxConcurrency.orElse(0));
        }
        d.put("requests", limits.requestsOrZero());
        d.put("duration_ms", limits.duration().map(Duration::toMillis).orElse(null));
        d.put("warmup_requests", warmup.requestsOrZero());
        d.put("warmup_ms", warmup.durationOrZero().toMillis());
        d.put("cooldown_requests", cooldown.requestsOrZero());
        d.put("cooldown_ms", cooldown.durationOrZero().toMillis());
        d.put("drain_ms", drain.toMillis());
        if (firstLookRequests > 0) {
            d.put("until_decided_from_requests", firstLookRequests);
        }
        d.put(
                "headers_timeout_ms",
                requestPolicy.headersTimeout().map(Duration::toMillis).orElse(null));
        d.put(
                "first_token_timeout_ms",
                requestPolicy.firstTokenTimeout().map(Duration::toMillis).orElse(null));
        d.put("total_timeout_ms", requestPolicy.totalTimeout().toMillis());
        d.put("retries", requestPolicy.retries());
        d.put("max_retry_wait_ms", requestPolicy.maxRetryWait().toMillis());
        return d;
    }

    @Override
    public String toString() {
        String cap = maxConcurrency.isPresent() ? " (max " + maxConcurrency.getAsInt() + " in flight)" : "";
        int retries = requestPolicy.retries();
        String decided = firstLookRequests > 0 ? ", until decided from " + firstLookRequests + " measured" : "";
        return arrivals + cap + ", " + limits + decided + (retries > 0 ? ", up to " + retries + " retries" : "");
    }

    /** The checks of settings that need one another, run on every copy. */
    private void checkTogether() {
        if (limits.isEmpty()) {
            throw InvalidSettingException.conflict(
                    name -> "a load needs a limit: set " + name.apply("requests") + ", " + name.apply("duration")
                            + " or both",
                    "requests",
                    "duration");
        }
        if (maxConcurrency.isPresent() && !arrivals.isOpenLoop()) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("maxConcurrency") + " applies to an open loop; a closed loop's "
                            + name.apply("concurrency") + " is its user count",
                    "maxConcurrency",
                    "concurrency");
        }
        long requests = limits.requestsOrZero();
        long warmupRequests = warmup.requestsOrZero();
        long cooldownRequests = cooldown.requestsOrZero();
        if (cooldownRequests > 0 && requests == 0) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("cooldownRequests") + " (" + cooldownRequests + ") needs a request limit ("
                            + name.apply("requests") + ") to know which are last",
                    "cooldownRequests",
                    "requests");
        }
        if (requests > 0 && warmupRequests + cooldownRequests >= requests) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("warmupRequests") + " (" + warmupRequests + ") + "
                            + name.apply("cooldownRequests") + " (" + cooldownRequests
                            + ") leave no measured request of " + name.apply("requests") + " (" + requests + ")",
                    "warmupRequests",
                    "cooldownRequests",
                    "requests");
        }
        if (cooldown.duration().isPresent() && limits.duration().isEmpty() && !arrivals.isOpenLoop()) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("cooldown") + " (" + Units.formatValue(cooldown.durationOrZero())
                            + ") in a closed loop needs a duration limit (" + name.apply("duration")
                            + ") to know when the load period ends",
                    "cooldown",
                    "duration");
        }
        if (firstLookRequests > 0) {
            checkUntilDecided(requests, warmupRequests);
        }
        if (limits.duration().isPresent()
                && warmup.durationOrZero()
                                .plus(cooldown.durationOrZero())
                                .compareTo(limits.duration().get())
                        >= 0) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("warmup") + " (" + Units.formatValue(warmup.durationOrZero()) + ") + "
                            + name.apply("cooldown") + " (" + Units.formatValue(cooldown.durationOrZero())
                            + ") leave no measured time of " + name.apply("duration") + " ("
                            + Units.formatValue(limits.duration().get()) + ")",
                    "warmup",
                    "cooldown",
                    "duration");
        }
    }

    private void checkUntilDecided(long requests, long warmupRequests) {
        if (requests == 0) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("untilDecided") + " needs a request limit, its maximum: set it with "
                            + name.apply("untilDecided") + "(minRequests, maxRequests)",
                    "untilDecided",
                    "requests");
        }
        if (!cooldown.isEmpty()) {
            throw InvalidSettingException.conflict(
                    "a run that lasts until decided ends with the requests in flight at its deciding look as its "
                            + "cool-down; it takes no cool-down of its own (" + cooldown + ")",
                    "untilDecided",
                    "cooldown");
        }
        if (firstLookRequests > requests - warmupRequests) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("minRequests") + " (" + firstLookRequests
                            + ") exceeds the measured requests of " + name.apply("maxRequests") + " (" + requests
                            + ") after " + name.apply("warmupRequests") + " (" + warmupRequests + ")",
                    "minRequests",
                    "maxRequests",
                    "warmupRequests");
        }
    }
}
