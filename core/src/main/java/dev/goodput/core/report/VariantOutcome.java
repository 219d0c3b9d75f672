package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One server variant's outcome in a {@link VariantComparison}: its name, whether it met the gate, and the run whose
 * figures the comparison shows.
 *
 * @param name the variant's name, unique in its comparison
 * @param passed whether the variant met the gate (every objective of a run, the max goodput bound of a sweep)
 * @param result the run the comparison's figures come from: the run itself, or for a sweep the run at its max
 *     goodput rate (the lowest rate tried when no rate attained the target)
 * @param sweep the sweep, when the gate is a sweep
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record VariantOutcome(String name, boolean passed, RunResult result, Optional<SweepResult> sweep) {

    public VariantOutcome {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(sweep, "sweep");
    }

    /** Returns the outcome of a single run. */
    public static VariantOutcome ofRun(String name, RunResult result, boolean passed) {
        return new VariantOutcome(name, passed, result, Optional.empty());
    }

    /**
     * Returns the outcome of a sweep, showing the run at its max goodput rate, or the lowest rate tried when no rate
     * attained the target (the variant's best showing).
     */
    public static VariantOutcome ofSweep(String name, SweepResult sweep, boolean passed) {
        Optional<SweepPoint> atMax = sweep.curve().stream()
                .filter(point -> point.offeredRate() == sweep.maxGoodputRate())
                .findFirst();
        SweepPoint shown = atMax.or(() -> sweep.curve().stream().findFirst())
                .or(() -> sweep.points().stream().min(Comparator.comparingDouble(SweepPoint::offeredRate)))
                .orElseThrow(() -> new IllegalArgumentException("the sweep of variant " + name + " made no run"));
        return new VariantOutcome(name, passed, shown.result(), Optional.of(sweep));
    }

    /** Returns the number of objectives the shown run met. */
    public long objectivesMet() {
        return result.verdicts().stream().filter(verdict -> verdict.isMet()).count();
    }

    /**
     * Returns the figure variants are ranked by: goodput in requests/s for a run, the max goodput rate for a
     * sweep.
     */
    public double score() {
        return sweep.map(SweepResult::maxGoodputRate).orElse(result.goodput());
    }
}
