package dev.goodput.core.load;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Settings;
import dev.goodput.core.internal.Units;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * A count of requests, a span of time, or both: whichever is reached first ends what they limit. One type serves
 * a load's whole schedule, its warm-up and its cool-down (as JMH's {@code IterationParams} serves warm-up and
 * measurement alike).
 *
 * @param requests how many requests, at least 1 when present
 * @param duration how much time, positive when present
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record Limits(OptionalLong requests, Optional<Duration> duration) {

    private static final Limits NONE = new Limits(OptionalLong.empty(), Optional.empty());

    public Limits {
        Objects.requireNonNull(requests, "requests");
        Objects.requireNonNull(duration, "duration");
        if (requests.isPresent()) {
            Settings.atLeast("requests", requests.getAsLong(), 1);
        }
        duration.ifPresent(value -> Settings.positive("duration", value));
    }

    /** No limit: for a warm-up or cool-down, none of it. */
    public static Limits none() {
        return NONE;
    }

    /** A count of requests, at least 1. */
    public static Limits requests(long count) {
        return new Limits(OptionalLong.of(count), Optional.empty());
    }

    /** A span of time, positive. */
    public static Limits duration(Duration value) {
        return new Limits(OptionalLong.empty(), Optional.of(value));
    }

    /** Returns these limits with the request count replaced. */
    public Limits withRequests(long count) {
        return new Limits(OptionalLong.of(count), duration);
    }

    /** Returns these limits with the request count removed. */
    public Limits withoutRequests() {
        return new Limits(OptionalLong.empty(), duration);
    }

    /** Returns these limits with the duration replaced. */
    public Limits withDuration(Duration value) {
        return new Limits(requests, Optional.of(value));
    }

    /** Returns these limits with the duration removed. */
    public Limits withoutDuration() {
        return new Limits(requests, Optional.empty());
    }

    /** Returns whether neither a count nor a duration is set. */
    public boolean isEmpty() {
        return requests.isEmpty() && duration.isEmpty();
    }

    /** Returns the request count, or 0 when there is none. */
    long requestsOrZero() {
        return requests.orElse(0);
    }

    /** Returns the duration, or zero when there is none. */
    Duration durationOrZero() {
        return duration.orElse(Duration.ZERO);
    }

    /**
     * Returns these limits with the count and the duration multiplied by {@code factor}. With {@code keepSet}, a
     * count stays at least 1 and a duration at least 1 ns, so a limit that was set stays set (a schedule's
     * limits); without it, what rounds to nothing is dropped (a warm-up of 20 requests scaled by 0.01 is none).
     */
    Limits scaled(double factor, boolean keepSet) {
        long least = keepSet ? 1 : 0;
        long scaledCount = requests.isPresent() ? Math.max(least, Math.round(requests.getAsLong() * factor)) : 0;
        OptionalLong count = scaledCount > 0 ? OptionalLong.of(scaledCount) : OptionalLong.empty();
        Optional<Duration> time = duration.map(d -> Duration.ofNanos(Math.max(least, Math.round(d.toNanos() * factor))))
                .filter(d -> !d.isZero());
        return new Limits(count, time);
    }

    @Override
    public String toString() {
        String count = requests.isPresent() ? requests.getAsLong() + " requests" : "";
        String time = duration.map(d -> "for " + Units.formatValue(d)).orElse("");
        return isEmpty() ? "none" : count + (count.isEmpty() || time.isEmpty() ? "" : ", ") + time;
    }
}
