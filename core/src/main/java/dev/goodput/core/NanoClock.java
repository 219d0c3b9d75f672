package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The one monotonic clock every Goodput timestamp comes from.
 *
 * <p>Production code uses {@link #system()}, which is {@link System#nanoTime()}. Tests inject a fake
 * clock so that timing logic is checked against hand-computed values without sleeping. Values are only
 * meaningful as differences between two readings of the same clock.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface NanoClock {

    /** Returns the current reading of this clock in nanoseconds. */
    long nanoTime();

    /** Returns the JVM's monotonic clock, {@link System#nanoTime()}. */
    static NanoClock system() {
        return System::nanoTime;
    }
}
