package dev.goodput.core.shard.internal;

import java.time.Instant;

/**
 * The start instant the shards agreed on, as one shard sees it.
 *
 * @param startEpochNanos when this shard starts its schedule, on its own clock ({@code coordinatorStartEpochNanos
 *     - clockOffsetNanos}); pass it to {@link StartBarrier#sleepUntil}
 * @param clockOffsetNanos the coordinator's clock minus this shard's clock, in nanoseconds (0 on the coordinator):
 *     add it to a reading of this shard's clock to get the coordinator's time
 * @param offsetUncertaintyNanos half the round trip of the exchange the offset came from: the true offset lies
 *     within {@code clockOffsetNanos} &plusmn; this (0 on the coordinator)
 * @param coordinatorStartEpochNanos the agreed start instant on the coordinator's clock, the same for all shards
 */
public record AgreedStart(
        long startEpochNanos, long clockOffsetNanos, long offsetUncertaintyNanos, long coordinatorStartEpochNanos) {

    /** Returns {@link #startEpochNanos()} as an instant on this shard's clock. */
    public Instant startOnOwnClock() {
        return Instant.ofEpochSecond(0, startEpochNanos);
    }
}
