package dev.goodput.core.ab.internal;

import dev.goodput.core.ab.Arm;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The order in which an A/B run offers its blocks: pairs of blocks grouped in fours, each four either ABBA or BAAB
 * by a seeded coin. Within each four, each arm goes first once and second once, so that what the first block of a
 * pair pays (a server woken from idle, a cache the other arm's block cooled) or gains falls on both arms equally,
 * and a linear drift over the four cancels; the coin keeps the order from lining up with anything periodic on the
 * machine. The same seed gives the same order.
 */
public final class BlockOrder {

    private final long seed;

    public BlockOrder(long seed) {
        this.seed = seed;
    }

    /** Returns the order of the two blocks of the pair numbered from 0. */
    public List<Arm> pair(int index) {
        boolean abba = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (index / 2 + 1))).nextBoolean();
        boolean baselineFirst = abba == (index % 2 == 0);
        return baselineFirst ? List.of(Arm.BASELINE, Arm.CANDIDATE) : List.of(Arm.CANDIDATE, Arm.BASELINE);
    }
}
