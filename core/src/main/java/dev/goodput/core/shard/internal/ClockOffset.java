package dev.goodput.core.shard.internal;

/**
 * One Cristian-style clock exchange: the client read its clock at {@code t0} just before asking, the
 * coordinator answered its reading {@code t1}, and the client read its clock at {@code t3} just after the answer.
 * Assuming the coordinator read its clock half-way through the round trip, its clock is ahead of the client's by
 * {@code t1 - (t0 + t3) / 2}; whatever the path delays, the error is at most half the round trip, because
 * {@code t1} was read somewhere between {@code t0} and {@code t3}.
 *
 * @param offsetNanos the coordinator's clock minus the client's clock
 * @param roundTripNanos {@code t3 - t0}
 */
record ClockOffset(long offsetNanos, long roundTripNanos) {

    /** Computes the offset of one exchange; the midpoint is computed without overflowing epoch nanoseconds. */
    static ClockOffset of(long t0, long t1, long t3) {
        long roundTrip = t3 - t0;
        long midpoint = t0 + roundTrip / 2;
        return new ClockOffset(t1 - midpoint, roundTrip);
    }

    /** Returns the bound on this offset's error: half the round trip, rounded up. */
    long uncertaintyNanos() {
        return (roundTripNanos + 1) / 2;
    }

    /** Returns the more precise of this and {@code other}: the one with the shorter round trip. */
    ClockOffset better(ClockOffset other) {
        return other.roundTripNanos < roundTripNanos ? other : this;
    }
}
