package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Which faults the mock server injects, each at a rate between 0 and 1, drawn from one seed.
 *
 * <p>Each request draws at most one fault: the {@code n}-th request (in arrival order) draws a number from
 * {@code (seed, n)} and gets the fault whose share of the cumulative rates it falls in, so the same seed gives
 * the same faults for the same request order. The rates therefore add up to at most 1. Mid-stream faults
 * happen after a number of tokens drawn from the same seed, between 1 and half the request's {@code
 * max_tokens}.
 *
 * <p>Immutable; {@code withX} methods return a changed copy.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Faults {

    private static final Faults NONE = new Faults(new EnumMap<>(Fault.class), 0L, null, Duration.ofSeconds(2), false);

    private final Map<Fault, Double> rates;
    private final long seed;
    private final Duration retryAfter;
    private final Duration stallDuration;
    private final boolean closeAfterStreams;

    private Faults(
            Map<Fault, Double> rates,
            long seed,
            Duration retryAfter,
            Duration stallDuration,
            boolean closeAfterStreams) {
        EnumMap<Fault, Double> copy = new EnumMap<>(Fault.class);
        copy.putAll(rates);
        this.rates = Collections.unmodifiableMap(copy);
        this.seed = seed;
        this.retryAfter = retryAfter;
        this.stallDuration = stallDuration;
        this.closeAfterStreams = closeAfterStreams;
    }

    /** Returns a configuration that injects no fault. */
    public static Faults none() {
        return NONE;
    }

    /**
     * Returns a copy that injects {@code fault} into the given fraction of requests.
     *
     * @throws IllegalArgumentException if the rate is outside 0..1 or the rates would add up to more than 1
     */
    public Faults withRate(Fault fault, double rate) {
        Objects.requireNonNull(fault, "fault");
        if (fault == Fault.NONE) {
            throw new IllegalArgumentException("fault NONE has no rate; set the other faults' rates instead");
        }
        if (!(rate >= 0.0 && rate <= 1.0)) {
            throw new IllegalArgumentException("fault rate for " + fault.cliName() + " must be in 0..1, was " + rate);
        }
        EnumMap<Fault, Double> changed = new EnumMap<>(Fault.class);
        changed.putAll(rates);
        if (rate == 0.0) {
            changed.remove(fault);
        } else {
            changed.put(fault, rate);
        }
        double total =
                changed.values().stream().mapToDouble(Double::doubleValue).sum();
        if (total > 1.0 + 1e-9) {
            throw new IllegalArgumentException(
                    "fault rates must add up to at most 1, were " + total + " with " + fault.cliName() + "=" + rate);
        }
        return new Faults(changed, seed, retryAfter, stallDuration, closeAfterStreams);
    }

    /** Returns a copy whose draws come from {@code seed}. */
    public Faults withSeed(long seed) {
        return new Faults(rates, seed, retryAfter, stallDuration, closeAfterStreams);
    }

    /**
     * Returns a copy whose 429 and 503 responses carry {@code Retry-After} with this many whole seconds.
     *
     * @throws IllegalArgumentException if negative
     */
    public Faults withRetryAfter(Duration retryAfter) {
        Objects.requireNonNull(retryAfter, "retryAfter");
        if (retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative, was " + retryAfter);
        }
        return new Faults(rates, seed, retryAfter, stallDuration, closeAfterStreams);
    }

    /**
     * Returns a copy whose {@link Fault#STALL} pauses a stream for {@code stallDuration}.
     *
     * @throws IllegalArgumentException if not positive
     */
    public Faults withStallDuration(Duration stallDuration) {
        Objects.requireNonNull(stallDuration, "stallDuration");
        if (stallDuration.isNegative() || stallDuration.isZero()) {
            throw new IllegalArgumentException("stallDuration must be positive, was " + stallDuration);
        }
        return new Faults(rates, seed, retryAfter, stallDuration, closeAfterStreams);
    }

    /**
     * Returns a copy that closes the connection after every streamed response although the response's headers
     * advertise keep-alive, as llama.cpp's server does. A client that reuses such a connection from its pool
     * finds it closed before any byte of the next response: the request never reached the server.
     */
    public Faults withCloseAfterStreams(boolean value) {
        return new Faults(rates, seed, retryAfter, stallDuration, value);
    }

    /** Returns whether the connection is closed after every streamed response ({@link #withCloseAfterStreams}). */
    public boolean closeAfterStreams() {
        return closeAfterStreams;
    }

    /** Returns the rate of {@code fault}, 0 when not injected; for {@link Fault#NONE}, the rest of 1. */
    public double rate(Fault fault) {
        if (fault == Fault.NONE) {
            return Math.max(
                    0.0,
                    1.0
                            - rates.values().stream()
                                    .mapToDouble(Double::doubleValue)
                                    .sum());
        }
        return rates.getOrDefault(fault, 0.0);
    }

    /** Returns the non-zero rates by fault. */
    public Map<Fault, Double> rates() {
        return rates;
    }

    /** Returns the seed of the draws. */
    public long seed() {
        return seed;
    }

    /** Returns the {@code Retry-After} of 429 and 503 responses, if any. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** Returns how long a {@link Fault#STALL} pauses a stream (2 seconds unless changed). */
    public Duration stallDuration() {
        return stallDuration;
    }

    /** Returns whether any fault has a non-zero rate. */
    public boolean isEnabled() {
        return !rates.isEmpty();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Faults
                && rates.equals(((Faults) other).rates)
                && seed == ((Faults) other).seed
                && Objects.equals(retryAfter, ((Faults) other).retryAfter)
                && stallDuration.equals(((Faults) other).stallDuration)
                && closeAfterStreams == ((Faults) other).closeAfterStreams;
    }

    @Override
    public int hashCode() {
        return Objects.hash(rates, seed, retryAfter, stallDuration, closeAfterStreams);
    }

    @Override
    public String toString() {
        return "Faults" + rates + " seed=" + seed + " retryAfter=" + retryAfter + " stall=" + stallDuration
                + (closeAfterStreams ? " closeAfterStreams" : "");
    }
}
