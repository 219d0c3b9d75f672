package dev.goodput.core.compare;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * One metric's change from the baseline to the current run.
 *
 * @param name what was compared, for example {@code "TTFT p99"} or {@code "goodput"}
 * @param lowerIsBetter whether a decrease is an improvement (latencies) or a regression (rates)
 * @param baseline the baseline's value, in milliseconds for latencies and per second for rates
 * @param current the current run's value, in the same unit
 * @param change {@code current / baseline - 1}, for example 0.15 for 15 % higher
 * @param changeLower the lower end of the interval on the change, NaN when there is none
 * @param changeUpper the upper end of the interval on the change, NaN when there is none
 * @param verdict what the change means, given the minimum practical change
 * @param method how the interval was computed
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record MetricChange(
        String name,
        boolean lowerIsBetter,
        double baseline,
        double current,
        double change,
        double changeLower,
        double changeUpper,
        ChangeVerdict verdict,
        String method) {

    /** Returns whether the change has an interval. */
    public boolean hasInterval() {
        return !Double.isNaN(changeLower) && !Double.isNaN(changeUpper);
    }

    /** Returns one line: {@code "TTFT p99: 212.0 -> 250.3 ms, +18.1 % [+9.7 %, +27.2 %] REGRESSED"}. */
    public String describe() {
        String unit = lowerIsBetter ? " ms" : "/s";
        String interval = hasInterval()
                ? String.format(Locale.ROOT, " [%s, %s]", percent(changeLower), percent(changeUpper))
                : " [no interval]";
        return String.format(
                Locale.ROOT,
                "%s: %s -> %s%s, %s%s %s",
                name,
                number(baseline),
                number(current),
                unit,
                percent(change),
                interval,
                verdict);
    }

    /** Formats a relative change as a signed percentage, for example {@code "+18.1 %"}. */
    public static String percent(double change) {
        return Double.isNaN(change) ? "n/a" : String.format(Locale.ROOT, "%+.1f %%", change * 100);
    }

    private static String number(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, Math.abs(value) >= 100 ? "%.1f" : "%.3g", value);
    }
}
