package dev.goodput.core.shard.internal;

import java.time.Instant;

/**
 * A wall clock read in nanoseconds since the epoch, injected so that clock offsets and start instants are
 * tested with clocks set apart on purpose, and {@link StartBarrier#sleepUntil} on a fake clock.
 */
@FunctionalInterface
public interface WallClock {

    /** Returns the current reading of this clock in nanoseconds since 1970-01-01T00:00:00Z. */
    long epochNanos();

    /**
     * Returns the system wall clock, anchored once per JVM: {@code Instant.now()} and {@code System.nanoTime()}
     * are read together once, and every reading is that instant plus the {@code nanoTime} elapsed since.
     *
     * <p>Why not {@code Instant.now()} on every reading: on JDK 17 Linux it has microsecond resolution, and it
     * steps when NTP or an operator sets the clock, so a round trip measured with it can come out negative and a
     * sleep until an instant can overshoot by the step. The anchored clock has nanosecond resolution and never
     * goes back within the process. It follows NTP's rate corrections (Linux slews the monotonic clock too), but
     * not a step after the anchor; that is fine here because the offset between shards is measured explicitly
     * with this same clock on both sides, at the start of each barrier.
     */
    static WallClock system() {
        return AnchoredSystemClock.INSTANCE;
    }

    /** The system wall clock anchored to {@code System.nanoTime()}; see {@link WallClock#system()}. */
    final class AnchoredSystemClock implements WallClock {

        static final AnchoredSystemClock INSTANCE = new AnchoredSystemClock();

        private final long anchorEpochNanos;
        private final long anchorNanoTime;

        private AnchoredSystemClock() {
            Instant now = Instant.now();
            anchorNanoTime = System.nanoTime();
            anchorEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        }

        @Override
        public long epochNanos() {
            return anchorEpochNanos + (System.nanoTime() - anchorNanoTime);
        }
    }
}
