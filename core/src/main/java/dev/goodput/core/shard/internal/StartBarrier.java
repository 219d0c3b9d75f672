package dev.goodput.core.shard.internal;

import dev.goodput.core.InvalidSettingException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets the shards of one sharded run start their schedules at one agreed wall-clock instant, and tells each
 * shard its clock offset to shard 0, the coordinator, so that their timelines can be aligned afterwards.
 *
 * <p>Shard 0 {@linkplain #coordinate coordinates}: it serves HTTP on a port (all interfaces). Every other shard
 * {@linkplain #join joins} with the coordinator's {@code host:port}:
 *
 * <ol>
 *   <li>{@code GET /time}, {@code clockSamples} times (default 8): the coordinator answers its wall clock in
 *       nanoseconds since the epoch, {@code t1}, in the header {@code Goodput-Epoch-Nanos} of an empty 200; the
 *       shard reads its own clock just before sending, {@code t0}, and just after the answer, {@code t3}. The
 *       exchange with the shortest round trip {@code t3 - t0} gives the offset {@code t1 - (t0 + t3) / 2}
 *       (coordinator minus shard), accurate to &plusmn; half that round trip (see {@link ClockOffset}). The
 *       reading travels in a header of a response without body because the JDK server writes a body separately,
 *       and Nagle's algorithm would hold that second write until the client's delayed ACK, about 40 ms.
 *   <li>{@code POST /ready} with {@code {"runId": "...", "index": i, "count": n}}. The coordinator holds the
 *       answer until shards 0..n-1 have all checked in (a shard checking in again, for example a restarted pod,
 *       is simply counted once), then answers every one {@code {"startEpochNanos": s}}: the moment of the last
 *       check-in on its clock plus the start margin (default 2 s). A wrong count or an index out of range is
 *       answered HTTP 400, another run's identity HTTP 409, a timeout HTTP 503, each with a plain-text message
 *       naming the field and the value.
 *   <li>The shard starts at {@code s - offset} on its own clock ({@link AgreedStart#startEpochNanos()}).
 * </ol>
 *
 * <p>The offset is measured just before the check-in, so it does not include how far the two clocks drift apart
 * while the shard waits for the others: a few microseconds a minute between NTP-disciplined clocks, up to a few
 * milliseconds a minute between free-running ones.
 *
 * <p>Everything is bounded by the timeout (default 5 minutes). A joining shard tries again, after the retry
 * backoff, while the coordinator cannot be reached (its pod may start later) or answers 409 (it may still be
 * serving the previous gate of the same test class); a 400 or 503 ends it at once. All threads are daemons.
 */
public final class StartBarrier {

    /** The header of the coordinator's answer to {@code GET /time}: its wall clock in nanoseconds since the epoch. */
    static final String TIME_HEADER = "Goodput-Epoch-Nanos";

    /** Below this, {@link #sleepUntil} parks for what is left instead of sleeping, to wake close to the instant. */
    private static final long PARK_BELOW_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private StartBarrier() {}

    /**
     * Opens shard 0's coordinator on {@code port} (0 for any free port, see {@link BarrierCoordinator#port()})
     * without checking shard 0 in, so the other shards can measure their clock offsets while shard 0 prepares;
     * call {@link BarrierCoordinator#await()} when it is ready, or {@link BarrierCoordinator#close()} if it will
     * not be. The timeout counts from here.
     */
    public static BarrierCoordinator open(int count, String runId, int port, BarrierSettings settings, WallClock clock)
            throws InterruptedException {
        if (count < 1) {
            throw InvalidSettingException.of("count", count, "must be at least 1");
        }
        if (port < 0 || port > 65_535) {
            throw InvalidSettingException.of("port", port, "must be between 0 and 65535");
        }
        return new BarrierCoordinator(count, Objects.requireNonNull(runId, "runId"), port, settings, clock);
    }

    /** Shard 0: opens the coordinator on {@code port}, checks in and waits for every other shard. */
    public static AgreedStart coordinate(int count, String runId, int port, BarrierSettings settings, WallClock clock)
            throws InterruptedException {
        return open(count, runId, port, settings, clock).await();
    }

    /**
     * Shard {@code index} (1..count-1): measures its clock offset to the coordinator, checks in and waits for the
     * agreed start.
     *
     * @throws StartBarrierException if the coordinator refuses the check-in or the timeout passes
     */
    public static AgreedStart join(
            int index,
            int count,
            String runId,
            InetSocketAddress coordinator,
            BarrierSettings settings,
            WallClock clock)
            throws InterruptedException {
        if (count < 2) {
            throw InvalidSettingException.of("count", count, "must be at least 2 for a shard to join shard 0");
        }
        if (index < 1 || index >= count) {
            throw InvalidSettingException.of(
                    "index", index, "must be between 1 and " + (count - 1) + " for a joining shard (0 coordinates)");
        }
        return new BarrierClient(index, count, Objects.requireNonNull(runId, "runId"), coordinator, settings, clock)
                .join();
    }

    /**
     * Parses a coordinator address {@code host:port} ({@code [v6-address]:port} for IPv6) without resolving the
     * host, which may not exist yet.
     *
     * @param field the setting the value comes from, for the message, e.g. {@code goodput.shard.barrier}
     * @throws InvalidSettingException naming {@code field} and {@code value} if it is not {@code host:port}
     */
    public static InetSocketAddress parseAddress(String value, String field) {
        String requirement = "must be host:port with a port between 1 and 65535, e.g. gates-shard-0.gates:7311";
        int colon = value == null ? -1 : value.lastIndexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            throw InvalidSettingException.of(field, value, requirement);
        }
        String host = value.substring(0, colon).trim();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        } else if (host.contains(":")) {
            throw InvalidSettingException.of(field, value, requirement + " (an IPv6 address goes in brackets)");
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            throw InvalidSettingException.of(field, value, requirement);
        }
        if (host.isEmpty() || host.chars().anyMatch(Character::isWhitespace) || port < 1 || port > 65_535) {
            throw InvalidSettingException.of(field, value, requirement);
        }
        return InetSocketAddress.createUnresolved(host, port);
    }

    /**
     * Waits until {@code clock} reads {@code epochNanos} or later: sleeps while more than 2 ms are left, then
     * parks for what is left, checking the clock after every wake-up because either may end early.
     *
     * @return how late it woke, in nanoseconds (0 or more)
     */
    public static long sleepUntil(long epochNanos, WallClock clock) throws InterruptedException {
        return sleepUntil(epochNanos, clock, StartBarrier::pause);
    }

    /** {@link #sleepUntil(long, WallClock)} with the pause injected, so that it is tested on a fake clock. */
    static long sleepUntil(long epochNanos, WallClock clock, Pause pause) throws InterruptedException {
        while (true) {
            long remaining = epochNanos - clock.epochNanos();
            if (remaining <= 0) {
                return -remaining;
            }
            pause.pause(remaining > PARK_BELOW_NANOS ? remaining - PARK_BELOW_NANOS / 2 : remaining);
        }
    }

    /** Pauses the calling thread for about the given nanoseconds. */
    @FunctionalInterface
    interface Pause {
        void pause(long nanos) throws InterruptedException;
    }

    private static void pause(long nanos) throws InterruptedException {
        if (nanos > PARK_BELOW_NANOS) {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } else {
            LockSupport.parkNanos(nanos);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    static Thread daemonThread(Runnable task) {
        Thread thread = new Thread(task, "goodput-start-barrier");
        thread.setDaemon(true);
        return thread;
    }
}
