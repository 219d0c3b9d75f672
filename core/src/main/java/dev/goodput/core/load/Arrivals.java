package dev.goodput.core.load;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Settings;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * How a run's requests arrive: on an open-loop schedule ({@link Constant}, {@link Poisson}, {@link Gamma}, or a
 * replayed trace's own times, {@link TraceTimes}) or from a fixed number of closed-loop users ({@link
 * ClosedLoop}). Each case holds only the settings that mean something for it, so a think time on an open loop
 * or a seed on a constant rate cannot be written.
 *
 * <p>Arrivals become a {@link Load} once a limit is set: {@code Load.poisson(8).requests(2000)}.
 *
 * <p><b>Open loop.</b> Arrivals follow the schedule whatever the server does, so a slow server meets a growing
 * queue, as real users make one. Latencies are measured from each request's intended start, so a client that
 * cannot send on time, or a {@link Load#maxConcurrency(int) concurrency cap} that holds requests back, shows up
 * in TTFT and E2EL instead of being hidden (no coordinated omission). The first arrival is at the start.
 *
 * <p><b>Closed loop.</b> Each user sends a request, waits for it to end, waits the think time, and sends the
 * next. A request's intended start is when its user became free plus the think time.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public sealed interface Arrivals permits Arrivals.AtRate, Arrivals.TraceTimes, Arrivals.ClosedLoop {

    /** Returns whether requests arrive on a schedule whatever the server does (open loop). */
    boolean isOpenLoop();

    /** Describes these arrivals for the run's recorded configuration. */
    Map<String, Object> describe();

    /** Returns a load of these arrivals that stops creating requests after {@code count} requests. */
    default Load requests(long count) {
        return Load.of(this, Limits.requests(count));
    }

    /** Returns a load of these arrivals that creates no request intended to start at or after {@code value}. */
    /** A load of these arrivals that lasts until its objectives are decided ({@link Load#untilDecided}). */
    default Load untilDecided(long minRequests, long maxRequests) {
        return requests(maxRequests).untilDecided(minRequests, maxRequests);
    }

    default Load duration(Duration value) {
        return Load.of(this, Limits.duration(value));
    }

    /** Open-loop arrivals at a mean rate. */
    sealed interface AtRate extends Arrivals permits Constant, Poisson, Gamma {

        /** Returns the mean arrival rate in requests/s. */
        double rate();

        /** Returns the same arrivals at another mean rate (a sweep's next point). */
        AtRate atRate(double requestsPerSecond);

        @Override
        default boolean isOpenLoop() {
            return true;
        }
    }

    /**
     * A constant gap of {@code 1/rate} between arrivals.
     *
     * @param rate requests/s, finite and above 0
     */
    record Constant(double rate) implements AtRate {
        public Constant {
            Settings.positiveRate("rate", rate);
        }

        @Override
        public Constant atRate(double requestsPerSecond) {
            return new Constant(requestsPerSecond);
        }

        @Override
        public Map<String, Object> describe() {
            return openLoop("CONSTANT", rate, 1.0);
        }

        @Override
        public String toString() {
            return "constant " + rate + " req/s";
        }
    }

    /**
     * Exponential gaps (a Poisson process) at a mean rate, drawn from a recorded seed.
     *
     * @param rate mean requests/s, finite and above 0
     * @param seed the seed of the gaps
     */
    record Poisson(double rate, long seed) implements AtRate {
        public Poisson {
            Settings.positiveRate("rate", rate);
        }

        /** Returns the same arrivals drawn from another seed. */
        public Poisson seed(long value) {
            return new Poisson(rate, value);
        }

        @Override
        public Poisson atRate(double requestsPerSecond) {
            return new Poisson(requestsPerSecond, seed);
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> d = openLoop("POISSON", rate, 1.0);
            d.put("seed", seed);
            return d;
        }

        @Override
        public String toString() {
            return "poisson " + rate + " req/s";
        }
    }

    /**
     * Gamma-distributed gaps at a mean rate (vLLM's {@code --burstiness}); the mean gap is always {@code 1/rate}.
     *
     * @param rate mean requests/s, finite and above 0
     * @param burstiness the gamma shape: 1 is Poisson, below 1 burstier, above 1 more regular
     * @param seed the seed of the gaps
     */
    record Gamma(double rate, double burstiness, long seed) implements AtRate {
        public Gamma {
            Settings.positiveRate("rate", rate);
            Settings.positiveFinite("burstiness", burstiness);
        }

        /** Returns the same arrivals drawn from another seed. */
        public Gamma seed(long value) {
            return new Gamma(rate, burstiness, value);
        }

        @Override
        public Gamma atRate(double requestsPerSecond) {
            return new Gamma(requestsPerSecond, burstiness, seed);
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> d = openLoop("GAMMA", rate, burstiness);
            d.put("seed", seed);
            return d;
        }

        @Override
        public String toString() {
            return "gamma " + rate + " req/s";
        }
    }

    /**
     * The intended start times of a replayed trace ({@link dev.goodput.core.workload.TimedWorkload}); the run's
     * workload must be one, and the request limit at most its size.
     */
    record TraceTimes() implements Arrivals {
        @Override
        public boolean isOpenLoop() {
            return true;
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("mode", "OPEN_LOOP");
            d.put("arrivals", "TRACE");
            return d;
        }

        @Override
        public String toString() {
            return "trace replay";
        }
    }

    /**
     * A fixed number of users, each sending its next request when its previous one ended plus the think time.
     *
     * @param users at least 1
     * @param thinkTime the pause between a request's end and the user's next request, not negative
     */
    record ClosedLoop(int users, Duration thinkTime) implements Arrivals {
        public ClosedLoop {
            Settings.atLeast("concurrency", users, 1);
            Settings.notNegative("thinkTime", thinkTime);
        }

        /** Returns the same users with another think time. */
        public ClosedLoop thinkTime(Duration value) {
            return new ClosedLoop(users, value);
        }

        @Override
        public boolean isOpenLoop() {
            return false;
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("mode", "CLOSED_LOOP");
            d.put("concurrency", users);
            d.put("think_time_ms", thinkTime.toMillis());
            return d;
        }

        @Override
        public String toString() {
            return users + " concurrent users";
        }
    }

    private static Map<String, Object> openLoop(String arrivals, double rate, double burstiness) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("mode", "OPEN_LOOP");
        d.put("arrivals", arrivals.toUpperCase(Locale.ROOT));
        d.put("rate", rate);
        d.put("burstiness", burstiness);
        return d;
    }
}
