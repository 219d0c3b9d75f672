package dev.goodput.core.shard.internal;

import dev.goodput.core.InvalidSettingException;
import java.time.Duration;

/**
 * How long the start barrier waits and how far ahead it sets the start.
 *
 * @param timeout how long the whole barrier may take, from opening the coordinator or starting to join, until
 *     every shard has checked in; default 5 minutes
 * @param startMargin how long after the last check-in the shards start: time for every shard to receive the
 *     answer and prepare; default 2 s
 * @param clockSamples how many clock exchanges a joining shard makes; the one with the shortest round trip gives
 *     the offset; default 8
 * @param retryBackoff the pause before a joining shard tries again to reach a coordinator that is not up yet (and
 *     before the coordinator tries again to bind a port still held by the previous barrier); default 200 ms
 */
public record BarrierSettings(Duration timeout, Duration startMargin, int clockSamples, Duration retryBackoff) {

    /** Validates every setting; the message names the setting and its value. */
    public BarrierSettings {
        requirePositive("timeout", timeout);
        requirePositive("retryBackoff", retryBackoff);
        if (startMargin == null || startMargin.isNegative()) {
            throw InvalidSettingException.of("startMargin", startMargin, "must be zero or positive");
        }
        if (clockSamples < 1) {
            throw InvalidSettingException.of("clockSamples", clockSamples, "must be at least 1");
        }
    }

    /** Returns the defaults: timeout 5 min, start margin 2 s, 8 clock samples, retry backoff 200 ms. */
    public static BarrierSettings defaults() {
        return new BarrierSettings(Duration.ofMinutes(5), Duration.ofSeconds(2), 8, Duration.ofMillis(200));
    }

    /** Returns these settings with another timeout. */
    public BarrierSettings withTimeout(Duration newTimeout) {
        return new BarrierSettings(newTimeout, startMargin, clockSamples, retryBackoff);
    }

    /** Returns these settings with another start margin. */
    public BarrierSettings withStartMargin(Duration newStartMargin) {
        return new BarrierSettings(timeout, newStartMargin, clockSamples, retryBackoff);
    }

    /** Returns these settings with another number of clock samples. */
    public BarrierSettings withClockSamples(int newClockSamples) {
        return new BarrierSettings(timeout, startMargin, newClockSamples, retryBackoff);
    }

    /** Returns these settings with another retry backoff. */
    public BarrierSettings withRetryBackoff(Duration newRetryBackoff) {
        return new BarrierSettings(timeout, startMargin, clockSamples, newRetryBackoff);
    }

    private static void requirePositive(String setting, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw InvalidSettingException.of(setting, value, "must be positive");
        }
    }
}
