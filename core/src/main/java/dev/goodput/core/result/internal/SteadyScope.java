package dev.goodput.core.result.internal;

import dev.goodput.core.RunSpec;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.LoadStatistics;
import dev.goodput.core.result.SteadyState;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import java.util.List;

/**
 * What a run is judged over: the whole measurement window, or, when the spec asks to judge only the steady state,
 * the measured requests that started inside the {@link SteadyState} window and that window's length. The
 * accounting is never narrowed: every request the schedule created is still counted, whatever the scope.
 *
 * @param measured the measured requests judged
 * @param successes the successful ones among them
 * @param windowSeconds the length the run-level rates divide by
 * @param inconclusiveReason why every verdict is inconclusive (steady state asked for, none found), else {@code
 *     null}
 */
public record SteadyScope(
        List<RequestRecord> measured, List<RequestRecord> successes, double windowSeconds, String inconclusiveReason) {

    /**
     * Returns the scope a run is judged over.
     *
     * @param spec the run's spec, which says whether to judge only the steady state
     * @param load the run's load statistics, with the detected window
     * @param measured every measured request
     * @param successes the successful measured requests
     */
    public static SteadyScope of(
            RunSpec spec, LoadStatistics load, List<RequestRecord> measured, List<RequestRecord> successes) {
        SteadyState steady = load.steadyState();
        double windowSeconds = load.windowSeconds();
        if (!spec.judgeSteadyStateOnly()) {
            return new SteadyScope(measured, successes, windowSeconds, null);
        }
        if (!steady.found()) {
            // A gate that asked for the steady state must not pass on numbers that include the ramp: the values
            // over the whole window are still shown, but nothing is met or violated.
            return new SteadyScope(
                    measured,
                    successes,
                    windowSeconds,
                    "judged on the steady state only, and there was none: " + steady.reason());
        }
        return new SteadyScope(
                measured.stream()
                        .filter(r -> steady.contains(r.intendedNanos()))
                        .toList(),
                successes.stream()
                        .filter(r -> steady.contains(r.intendedNanos()))
                        .toList(),
                steady.seconds(),
                null);
    }

    /** Returns the verdicts as they stand, or each made inconclusive with the reason when there is one. */
    public List<SloVerdict> judge(List<SloVerdict> verdicts) {
        if (inconclusiveReason == null) {
            return verdicts;
        }
        return verdicts.stream()
                .map(v -> new SloVerdict(
                        v.objective(),
                        Verdict.INCONCLUSIVE,
                        v.measured(),
                        v.interval(),
                        v.sampleCount(),
                        v.effectiveCount(),
                        inconclusiveReason))
                .toList();
    }
}
