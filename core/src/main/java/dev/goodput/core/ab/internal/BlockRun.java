package dev.goodput.core.ab.internal;

import dev.goodput.core.ab.Arm;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.RunSnapshot;

/**
 * One block as it ran: its place in the order, when it ran on the run's clock, its result and what its recorder
 * took (the arm's pooled result is computed from the snapshots).
 */
record BlockRun(
        int pair,
        Arm arm,
        boolean firstInPair,
        long startNanos,
        long endNanos,
        RunResult result,
        RunSnapshot snapshot) {}
