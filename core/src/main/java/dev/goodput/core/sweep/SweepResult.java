package dev.goodput.core.sweep;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a sweep found, with every run behind it.
 *
 * @param spec what was swept
 * @param points every run in the order made: probes, grid, search
 * @param maxGoodput the max goodput rate found from every rated run
 * @param knee the run past which latency rises much faster than load, found on every rated run (grid and
 *     search), or {@code null} when the curve shows none
 * @param notes what the sweep skipped or cut short and why (for example a grid ended by over-saturation)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SweepResult(
        SweepSpec spec, List<SweepPoint> points, MaxGoodput maxGoodput, SweepPoint knee, List<String> notes) {

    public SweepResult {
        points = List.copyOf(points);
        notes = List.copyOf(notes);
    }

    /** Returns the open-loop runs ordered by offered rate: the curve. */
    public List<SweepPoint> curve() {
        return points.stream()
                .filter(SweepPoint::isRated)
                .sorted(Comparator.comparingDouble(SweepPoint::offeredRate))
                .toList();
    }

    /** Returns the knee, if the curve has one. */
    public Optional<SweepPoint> kneePoint() {
        return Optional.ofNullable(knee);
    }

    /** Returns the max goodput rate in requests/s. */
    public double maxGoodputRate() {
        return maxGoodput.rate();
    }
}
