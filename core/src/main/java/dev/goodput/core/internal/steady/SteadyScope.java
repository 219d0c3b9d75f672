package dev.goodput.core.internal.steady;

import dev.goodput.core.ObjectiveVerdict;
import dev.goodput.core.RequestRecord;
import dev.goodput.core.SteadyState;
import dev.goodput.core.Verdict;
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
     * @param steadyOnly whether the spec asks to judge only the steady state
     * @param steady the detected window
     * @param measured every measured request
     * @param successes the successful measured requests
     * @param windowSeconds the length of the whole measurement window
     */
    public static SteadyScope of(
            boolean steadyOnly,
            SteadyState steady,
            List<RequestRecord> measured,
            List<RequestRecord> successes,
            double windowSeconds) {
        if (!steadyOnly) {
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
    public List<ObjectiveVerdict> judge(List<ObjectiveVerdict> verdicts) {
        if (inconclusiveReason == null) {
            return verdicts;
        }
        return verdicts.stream()
                .map(v -> new ObjectiveVerdict(
                        v.objective(),
                        Verdict.INCONCLUSIVE,
                        v.measured(),
                        v.interval(),
                        v.sampleCount(),
                        inconclusiveReason))
                .toList();
    }
}
