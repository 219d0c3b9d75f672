package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * When one content chunk of a response was meant to go out and when it actually did.
 *
 * @param firstTokenIndex the 0-based index of the chunk's first output token
 * @param tokens how many output tokens the chunk carries
 * @param intendedNanos when the performance model meant the chunk to be emitted ({@code System.nanoTime()})
 * @param sentNanos when the chunk had been written to the socket ({@code System.nanoTime()} right after the
 *     write call returned), or -1 if it never was; on loopback the kernel may wake the reader before the write
 *     call returns, so a client can see a chunk a few microseconds before this instant
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChunkTiming(int firstTokenIndex, int tokens, long intendedNanos, long sentNanos) {

    /** Returns how late the chunk was sent, in nanoseconds ({@code sentNanos - intendedNanos}). */
    public long lateNanos() {
        return sentNanos - intendedNanos;
    }
}
