package dev.goodput.mock.internal.http;

import dev.goodput.mock.Fault;
import dev.goodput.mock.Faults;

/**
 * The fault drawn for one request, and for a mid-stream fault after how many output tokens it strikes.
 *
 * @param fault the fault, {@link Fault#NONE} if none
 * @param afterTokens mid-stream faults strike before the first chunk starting at or past this token index
 */
record FaultPlan(Fault fault, int afterTokens) {

    static final FaultPlan NONE = new FaultPlan(Fault.NONE, Integer.MAX_VALUE);

    /**
     * Draws the fault of the {@code requestIndex}-th generation request (0-based, arrival order) from {@code
     * faults}: the same seed and order always give the same plans.
     */
    static FaultPlan draw(Faults faults, long requestIndex, int maxTokens, boolean stream) {
        if (!faults.isEnabled()) {
            return NONE;
        }
        long bits = mix(faults.seed() ^ mix(requestIndex + 0x632be59bd9b4e019L));
        double u = (bits >>> 11) * 0x1.0p-53;
        double cumulative = 0;
        for (Fault fault : Fault.values()) {
            if (fault == Fault.NONE) {
                continue;
            }
            cumulative += faults.rate(fault);
            if (u < cumulative) {
                if (fault.isMidStream() && !stream) {
                    return NONE;
                }
                int span = Math.max(1, maxTokens / 2);
                int after = maxTokens < 2 ? 0 : 1 + (int) Math.floorMod(mix(bits), (long) span);
                return new FaultPlan(fault, after);
            }
        }
        return NONE;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
