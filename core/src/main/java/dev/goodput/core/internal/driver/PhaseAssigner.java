package dev.goodput.core.internal.driver;

import dev.goodput.core.Load;
import dev.goodput.core.Phase;

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
        this.warmupRequests = profile.warmupRequests();
        this.warmupNanos = profile.warmup().toNanos();
        this.cooldownFromIndex =
                profile.cooldownRequests() > 0 ? profile.requests() - profile.cooldownRequests() : Long.MAX_VALUE;
        long cooldownNanos = profile.cooldown().toNanos();
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
