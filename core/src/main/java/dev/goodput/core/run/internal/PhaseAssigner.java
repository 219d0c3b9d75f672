package dev.goodput.core.run.internal;

import dev.goodput.core.load.Load;
import dev.goodput.core.record.Phase;
import java.time.Duration;

/**
 * Decides at creation whether a request is warm-up, measured or cool-down, from its position and its intended
 * offset from the start. Warm-up wins over cool-down where both apply.
 */
final class PhaseAssigner {

    private final long warmupRequests;
    private final long warmupNanos;
    private final long cooldownFromIndex;
    private final long cooldownFromOffsetNanos;

    /**
     * @param loadEndOffsetNanos when the load period ends (the duration limit, or the last arrival of an
     *     open loop with only a request limit); unused without a time-based cool-down
     */
    PhaseAssigner(Load profile, long loadEndOffsetNanos) {
        this.warmupRequests = profile.warmup().requests().orElse(0);
        this.warmupNanos = profile.warmup().duration().orElse(Duration.ZERO).toNanos();
        this.cooldownFromIndex = profile.cooldown().requests().isPresent()
                ? profile.limits().requests().orElseThrow()
                        - profile.cooldown().requests().getAsLong()
                : Long.MAX_VALUE;
        long cooldownNanos = profile.cooldown().duration().orElse(Duration.ZERO).toNanos();
        this.cooldownFromOffsetNanos = cooldownNanos > 0 ? loadEndOffsetNanos - cooldownNanos : Long.MAX_VALUE;
    }

    Phase phase(long index, long intendedOffsetNanos) {
        if (index < warmupRequests || intendedOffsetNanos < warmupNanos) {
            return Phase.WARMUP;
        }
        if (index >= cooldownFromIndex || intendedOffsetNanos >= cooldownFromOffsetNanos) {
            return Phase.COOLDOWN;
        }
        return Phase.MEASURED;
    }
}
