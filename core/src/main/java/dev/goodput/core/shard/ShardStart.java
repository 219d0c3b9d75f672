package dev.goodput.core.shard;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.shard.internal.StartBarrier;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How the shards of a run agree on the instant they all start their share of the schedule. A shard's requests are
 * timed from that instant, so the shards' records line up on one time axis in the merge (to within the clocks'
 * agreement, see docs/distributed.md).
 */
@API(status = EXPERIMENTAL, since = "0.2")
public sealed interface ShardStart {

    /** The default port of shard 0's start barrier. */
    int DEFAULT_BARRIER_PORT = 7311;

    /** The default time a barrier waits for every shard to check in. */
    Duration DEFAULT_BARRIER_TIMEOUT = Duration.ofMinutes(5);

    /**
     * Every shard starts at a given wall-clock instant, read on its own clock; the clocks are trusted to agree
     * (NTP keeps machines within a few milliseconds of each other). A shard that is ready only after the instant
     * starts at once and records how late it was.
     */
    static ShardStart at(Instant instant) {
        return new At(instant);
    }

    /**
     * Shard 0 listens on {@code port} of {@code host} (on all interfaces); the others check in there. When all have,
     * shard 0 names an instant a moment ahead and every shard starts then, each having measured its clock's offset
     * to shard 0's over the same connection (NTP style), so the instant is the same on every machine to within half
     * a network round trip.
     *
     * @param hostAndPort shard 0's address as {@code host:port}, or {@code host} for port {@value
     *     #DEFAULT_BARRIER_PORT}
     */
    static ShardStart barrier(String hostAndPort) {
        return Barrier.parse(hostAndPort, DEFAULT_BARRIER_TIMEOUT);
    }

    /**
     * Starts at once, without agreeing with anyone: for one shard run alone (a test of one shard's share, or a
     * re-run of a lost shard whose timing need not line up with the others).
     */
    static ShardStart immediately() {
        return Immediately.INSTANCE;
    }

    /** Start at a given instant. */
    record At(Instant instant) implements ShardStart {
        public At {
            Objects.requireNonNull(instant, "instant");
        }
    }

    /**
     * Start at the instant shard 0's barrier names.
     *
     * @param host shard 0's host name or address
     * @param port shard 0's barrier port
     * @param timeout how long to wait for every shard to check in
     */
    record Barrier(String host, int port, Duration timeout) implements ShardStart {
        public Barrier {
            if (host == null || host.isBlank()) {
                throw InvalidSettingException.of("barrier host", host, "must name shard 0's host");
            }
            if (port < 1 || port > 65_535) {
                throw InvalidSettingException.of("barrier port", port, "must be from 1 to 65535");
            }
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw InvalidSettingException.of("barrier timeout", timeout, "must be positive");
            }
        }

        /** Returns this barrier with another timeout. */
        public Barrier withTimeout(Duration newTimeout) {
            return new Barrier(host, port, newTimeout);
        }

        static Barrier parse(String hostAndPort, Duration timeout) {
            if (hostAndPort == null || hostAndPort.isBlank()) {
                throw InvalidSettingException.of("barrier address", hostAndPort, "must be host:port or host");
            }
            String value = hostAndPort.trim();
            if (!value.contains(":")) {
                return new Barrier(value, DEFAULT_BARRIER_PORT, timeout);
            }
            InetSocketAddress address = StartBarrier.parseAddress(value, "barrier address");
            return new Barrier(address.getHostString(), address.getPort(), timeout);
        }

        @Override
        public String toString() {
            return "barrier at " + host + ":" + port;
        }
    }

    /** Start at once. */
    enum Immediately implements ShardStart {
        INSTANCE;

        @Override
        public String toString() {
            return "immediately";
        }
    }
}
