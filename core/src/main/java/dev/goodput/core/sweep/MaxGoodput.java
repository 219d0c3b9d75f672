package dev.goodput.core.sweep;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * The max goodput rate in DistServe's sense: the highest offered rate at which SLO attainment stayed at or above
 * the target, with the runs behind it. The true value lies between {@link #rate()} and {@link #failingRate()}.
 *
 * @param rate the highest offered rate that attained the target (0 when none did)
 * @param failingRate the lowest offered rate above it that did not, or NaN when every rate tried attained it
 * @param target the attainment target, for example 0.9
 * @param resolution the search's resolution in requests/s: it stops once {@code failingRate - rate} is at most this
 * @param converged whether the bracket closed to the resolution (false when the run budget ran out first)
 * @param runs the runs behind the answer, in the order they were made
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record MaxGoodput(
        double rate, double failingRate, double target, double resolution, boolean converged, List<SweepPoint> runs) {

    public MaxGoodput {
        runs = List.copyOf(runs);
    }

    /** Returns the width of the bracket the answer lies in, or infinity when no rate failed. */
    public double uncertainty() {
        return Double.isNaN(failingRate) ? Double.POSITIVE_INFINITY : failingRate - rate;
    }

    /** Returns one line such as {@code "max goodput rate 8.25 req/s (fails at 8.50, resolution 0.25, 9 runs)"}. */
    public String describe() {
        String failing = Double.isNaN(failingRate)
                ? "no rate tried failed"
                : String.format(Locale.ROOT, "fails at %.2f", failingRate);
        return String.format(
                Locale.ROOT,
                "max goodput rate %.2f req/s at %.0f%% attainment (%s, resolution %.2f%s, %d runs)",
                rate,
                target * 100,
                failing,
                resolution,
                converged ? "" : ", not converged",
                runs.size());
    }
}
