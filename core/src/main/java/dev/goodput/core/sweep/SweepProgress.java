package dev.goodput.core.sweep;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.RunProgress;
import org.apiguardian.api.API;

/**
 * How far a sweep has got: the current load, the runs done and planned, and the time left.
 *
 * @param currentLoad the load of the run under way, for example {@code "rate 6.00 req/s"}
 * @param runsDone runs finished
 * @param runsPlanned runs planned so far (a search may add more, within its bound)
 * @param run the current run's progress
 * @param elapsedNanos time since the sweep started
 * @param estimatedRemainingNanos the remaining runs at the mean duration so far, capped by the overall limit
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SweepProgress(
        String currentLoad,
        int runsDone,
        int runsPlanned,
        RunProgress run,
        long elapsedNanos,
        long estimatedRemainingNanos) {

    /** Returns one line such as {@code "sweep run 3/8, rate 6.00 req/s, 12/60 requests, ~40 s left"}. */
    public String describe() {
        StringBuilder line = new StringBuilder("sweep run ")
                .append(runsDone + 1)
                .append('/')
                .append(runsPlanned)
                .append(", ")
                .append(currentLoad)
                .append(", ")
                .append(run.ended())
                .append(run.plannedRequests() > 0 ? "/" + run.plannedRequests() : "")
                .append(" requests");
        if (estimatedRemainingNanos > 0) {
            line.append(", ~").append(Math.round(estimatedRemainingNanos / 1e9)).append(" s left");
        }
        return line.toString();
    }
}
