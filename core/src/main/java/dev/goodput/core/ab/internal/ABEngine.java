package dev.goodput.core.ab.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ab.ABBlock;
import dev.goodput.core.ab.ABResult;
import dev.goodput.core.ab.Arm;
import dev.goodput.core.ab.PairedChange;
import dev.goodput.core.compare.BaselineComparator;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.load.Shard;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.run.internal.LookPlan;
import dev.goodput.core.run.internal.RunEngine;
import dev.goodput.core.transport.TransportProvider;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs an A/B run: the pairs of blocks in their balanced order, one arm under load at a time, a look at every
 * planned pair count, and at the end each arm's pooled result.
 *
 * @param blockSpec the spec of the block of an arm in the pair numbered from 0 (its server, its requests)
 * @param armSpec the spec of an arm's pooled result, whose load is all its blocks' requests
 * @param plan when to look, in pairs
 * @param order the blocks' order
 * @param statistics what to compare
 * @param judge the minimum change and the verdicts
 * @param stopOnRegression whether a look that finds a regression ends the run
 * @param preflight whether to check each server before the first block
 * @param progress where a line per look goes
 */
public record ABEngine(
        BiFunction<Arm, Integer, RunSpec> blockSpec,
        Function<Arm, RunSpec> armSpec,
        LookPlan plan,
        BlockOrder order,
        List<ComparedStatistic> statistics,
        BaselineComparator judge,
        double confidence,
        boolean stopOnRegression,
        boolean preflight,
        Consumer<String> progress) {

    /** Runs the pairs until decided or at the plan's maximum and returns the result. */
    public ABResult run() {
        Instant startedAt = Instant.now();
        Map<Arm, TransportProvider> transports = new EnumMap<>(Arm.class);
        for (Arm arm : Arm.values()) {
            transports.put(
                    arm,
                    RunEngine.checkBeforeLoad(blockSpec.apply(arm, 0).withPreflight(preflight))
                            .transports());
        }
        NanoClock clock = NanoClock.system();
        long runStart = clock.nanoTime();
        List<BlockRun> blocks = new ArrayList<>();
        List<RunLength.Look> looks = new ArrayList<>();
        List<PairedChange> changes = List.of();
        String stopReason = null;
        boolean decided = false;
        int look = 0;
        long lastPairs = plan.measuredAt(plan.looks() - 1);
        for (int pair = 0; pair < lastPairs && stopReason == null; pair++) {
            List<Arm> arms = order.pair(pair);
            for (Arm arm : arms) {
                RunSpec spec = blockSpec.apply(arm, pair);
                RunRecorder recorder = RunEngine.recorder(spec);
                long start = clock.nanoTime();
                RunResult result = RunEngine.runOnRealTime(
                        spec, Shard.WHOLE, clock, transports.get(arm), recorder, () -> {}, null);
                long end = clock.nanoTime();
                blocks.add(new BlockRun(pair, arm, arm == arms.get(0), start, end, result, recorder.snapshot()));
            }
            if (pair + 1 == plan.measuredAt(look)) {
                double level = plan.looks() == 1 ? confidence : plan.lookConfidence();
                changes = compare(blocks, pair + 1, level);
                List<PairedChange> undecided =
                        changes.stream().filter(c -> !c.decided()).toList();
                List<PairedChange> regressed = changes.stream()
                        .filter(c -> c.verdict() == ChangeVerdict.REGRESSED)
                        .toList();
                looks.add(new RunLength.Look(
                        look + 1,
                        plan.looks(),
                        measuredPerArm(blocks),
                        changes.size() - undecided.size(),
                        undecided.size()));
                String where = String.format(
                        Locale.ROOT, "look %d of %d (%d pairs of blocks)", look + 1, plan.looks(), pair + 1);
                if (undecided.isEmpty()) {
                    decided = true;
                    stopReason = "every comparison was decided at " + where;
                } else if (stopOnRegression && !regressed.isEmpty()) {
                    decided = true;
                    stopReason = "a regression was found at " + where + " (" + names(regressed)
                            + "); the gate fails whatever the " + undecided.size()
                            + " undecided comparisons would say";
                } else if (look == plan.looks() - 1) {
                    stopReason = String.format(
                            Locale.ROOT,
                            "reached its maximum of %d pairs with %d of %d comparisons undecided: %s",
                            pair + 1,
                            undecided.size(),
                            changes.size(),
                            names(undecided));
                }
                progress.accept(where + ": " + (changes.size() - undecided.size()) + " of " + changes.size()
                        + " comparisons decided" + (stopReason == null ? "" : "; " + stopReason));
                look++;
            }
        }
        RunEnvironment environment = RunEnvironment.current(startedAt);
        Map<Arm, RunResult> pooled = new EnumMap<>(Arm.class);
        for (Arm arm : Arm.values()) {
            List<BlockRun> armBlocks =
                    blocks.stream().filter(b -> b.arm() == arm).toList();
            pooled.put(arm, ArmPool.result(armSpec.apply(arm), environment, armBlocks));
        }
        RunLength length = new RunLength(
                true, looks, plan.looks() == 1 ? confidence : plan.lookConfidence(), decided, -1, stopReason);
        return new ABResult(
                pooled.get(Arm.BASELINE),
                pooled.get(Arm.CANDIDATE),
                changes,
                overall(changes),
                blocks.stream().map(b -> describe(b, runStart)).toList(),
                length,
                judge.minimumChange(),
                confidence,
                Duration.ofNanos(clock.nanoTime() - runStart));
    }

    private List<PairedChange> compare(List<BlockRun> blocks, int pairs, double level) {
        List<PairedChange> changes = new ArrayList<>();
        for (ComparedStatistic statistic : statistics) {
            double[] baseline = new double[pairs];
            double[] candidate = new double[pairs];
            for (BlockRun block : blocks) {
                double value = statistic.of(block.result());
                (block.arm() == Arm.BASELINE ? baseline : candidate)[block.pair()] = value;
            }
            changes.add(PairedEstimator.estimate(statistic, baseline, candidate, level, judge));
        }
        return List.copyOf(changes);
    }

    /** The overall verdict: REGRESSED if any is, else INCONCLUSIVE if any is, else IMPROVED if any is. */
    static ChangeVerdict overall(List<PairedChange> changes) {
        if (changes.isEmpty()) {
            return ChangeVerdict.INCONCLUSIVE;
        }
        for (ChangeVerdict verdict :
                List.of(ChangeVerdict.REGRESSED, ChangeVerdict.INCONCLUSIVE, ChangeVerdict.IMPROVED)) {
            if (changes.stream().anyMatch(change -> change.verdict() == verdict)) {
                return verdict;
            }
        }
        return ChangeVerdict.UNCHANGED;
    }

    private static long measuredPerArm(List<BlockRun> blocks) {
        return blocks.stream()
                .filter(b -> b.arm() == Arm.CANDIDATE)
                .mapToLong(b -> b.result().accounting().measured())
                .sum();
    }

    private static String names(List<PairedChange> changes) {
        return String.join(", ", changes.stream().map(PairedChange::name).toList());
    }

    private static ABBlock describe(BlockRun block, long runStart) {
        long measured = block.result().accounting().measured();
        long failed = measured - block.result().accounting().measured(dev.goodput.core.record.Outcome.SUCCESS);
        return new ABBlock(
                block.pair() + 1,
                block.arm(),
                block.firstInPair(),
                Duration.ofNanos(block.startNanos() - runStart),
                Duration.ofNanos(block.endNanos() - block.startNanos()),
                measured,
                failed,
                block.result());
    }
}
