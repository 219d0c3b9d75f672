package dev.goodput.core.ab;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.MetricChange;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.result.RunResult;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * What an A/B run found: each arm's result pooled over its blocks, each statistic's paired change with its interval
 * and verdict, the blocks in the order they ran, the noise floor, and how long the run lasted and why it stopped.
 * Immutable.
 *
 * @param baseline the baseline arm's blocks pooled into one result, as if run back to back
 * @param candidate the candidate arm's, likewise; its objectives' verdicts are the run's objectives' verdicts
 * @param changes each compared statistic's change, at the confidence of the last look
 * @param verdict REGRESSED when any change is, else INCONCLUSIVE when any is, else IMPROVED when any is, else
 *     UNCHANGED
 * @param blocks the blocks, in the order they ran
 * @param runLength the looks taken, their confidence and why the run stopped
 * @param minimumChange the minimum practical change the verdicts weigh against
 * @param confidence the run's overall confidence
 * @param took how long the blocks took, first start to last end
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record ABResult(
        RunResult baseline,
        RunResult candidate,
        List<PairedChange> changes,
        ChangeVerdict verdict,
        List<ABBlock> blocks,
        RunLength runLength,
        double minimumChange,
        double confidence,
        Duration took) {

    public ABResult {
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(candidate, "candidate");
        changes = List.copyOf(changes);
        Objects.requireNonNull(verdict, "verdict");
        blocks = List.copyOf(blocks);
        Objects.requireNonNull(runLength, "runLength");
        Objects.requireNonNull(took, "took");
    }

    /** Returns the number of pairs of blocks that ran. */
    public int pairs() {
        return blocks.size() / 2;
    }

    /** Returns the order the blocks ran in, a pair per group, for example {@code "AB BA BA AB"} (A the baseline). */
    public String blockOrder() {
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < blocks.size(); i++) {
            if (i > 0 && i % 2 == 0) {
                order.append(' ');
            }
            order.append(blocks.get(i).arm().letter());
        }
        return order.toString();
    }

    /** Returns the change of the statistic with this name, for example {@code "TTFT p90"}. */
    public Optional<PairedChange> change(String name) {
        return changes.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** Returns the changes with this verdict. */
    public List<PairedChange> changes(ChangeVerdict which) {
        return changes.stream().filter(c -> c.verdict() == which).toList();
    }

    /**
     * Returns the noise floor: the largest minimum detectable change over the compared statistics, with the
     * statistic it belongs to; empty when no statistic had two pairs. Below this, a change of any statistic may go
     * unseen; {@link PairedChange#minimumDetectableChange()} gives each statistic's own.
     */
    public Optional<PairedChange> noiseFloor() {
        return changes.stream()
                .filter(c -> !Double.isNaN(c.minimumDetectableChange()))
                .max(Comparator.comparingDouble(PairedChange::minimumDetectableChange));
    }

    /**
     * Returns the blocks whose client fell behind its schedule or whose own threads waited to run (a machine busy
     * with other work): their pairs still count, as both arms' blocks of a pair are alike exposed to it, but many of
     * them mean the runner was too busy for small changes to show.
     */
    public List<ABBlock> blocksWithUntrustworthyClient() {
        return blocks.stream()
                .filter(block -> !block.result().clientHealth().trustworthy())
                .toList();
    }

    /** Returns whether the candidate met every objective (true when there are none). */
    public boolean candidateMetObjectives() {
        return candidate.allMet();
    }

    /** Returns whether the gate passes: no regression and the candidate met its objectives. */
    public boolean passed() {
        return verdict != ChangeVerdict.REGRESSED && candidateMetObjectives();
    }

    /**
     * Returns one line, for example {@code "REGRESSED: TPOT p50 +5.1 % [+4.2 %, +6.0 %]; 8 pairs, noise floor 2.3 %
     * (E2EL p90)"}.
     */
    public String headline() {
        List<PairedChange> named = verdict == ChangeVerdict.REGRESSED || verdict == ChangeVerdict.IMPROVED
                ? changes(verdict)
                : verdict == ChangeVerdict.INCONCLUSIVE ? changes(ChangeVerdict.INCONCLUSIVE) : List.of();
        String which = named.stream()
                .limit(3)
                .map(c -> c.name() + " " + MetricChange.percent(c.change().change()) + interval(c.change()))
                .collect(Collectors.joining(", "));
        String more = named.size() > 3 ? " and " + (named.size() - 3) + " more" : "";
        String floor = noiseFloor()
                .map(c -> String.format(Locale.ROOT, "; noise floor %s (%s)", c.describeMinimumDetectable(), c.name()))
                .orElse("");
        return verdict + (which.isEmpty() ? "" : ": " + which + more) + "; " + pairs() + " pairs" + floor;
    }

    private static String interval(MetricChange change) {
        return change.hasInterval()
                ? " [" + MetricChange.percent(change.changeLower()) + ", " + MetricChange.percent(change.changeUpper())
                        + "]"
                : "";
    }
}
