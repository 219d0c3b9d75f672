package dev.goodput.core.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * A commit where a series shifted, as {@link ChangePoints} found it.
 *
 * @param metric the figure's key, for example {@code ttft_p99_ms}
 * @param index the position in the series (0 is the oldest entry) of the first value after the shift
 * @param commit the commit of that first value; empty when unknown
 * @param before the mean of the window before the shift
 * @param after the mean of the window from the shift on
 * @param magnitude the relative size of the shift, {@code |after / before - 1|}
 * @param pValue the two-sample t-test's p-value of the two windows
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record ChangePoint(
        String metric, int index, String commit, double before, double after, double magnitude, double pValue) {

    /** Returns the signed relative change, {@code after / before - 1}: +0.18 for an 18 % rise. */
    public double change() {
        return after / before - 1;
    }

    /**
     * Returns whether the shift is for the worse: a latency or the error rate up, goodput or a throughput down
     * ({@link HistoryEntry#higherIsBetter(String)}).
     */
    public boolean isRegression() {
        return HistoryEntry.higherIsBetter(metric) ? after < before : after > before;
    }

    /** Returns the commit's first 7 characters; empty when unknown. */
    public String shortCommit() {
        return commit.length() <= 7 ? commit : commit.substring(0, 7);
    }

    /** Describes the shift: {@code "ttft_p99_ms shifted +18 % at commit abc1234 (120.0 -> 141.6), p = 2e-05"}. */
    public String describe() {
        String where = commit.isEmpty() ? "entry " + (index + 1) : "commit " + shortCommit();
        return String.format(
                Locale.ROOT,
                "%s shifted %s at %s (%s -> %s), p = %.1g",
                metric,
                percent(change()),
                where,
                number(before),
                number(after),
                pValue);
    }

    private static String percent(double change) {
        if (!Double.isFinite(change)) {
            return "from 0";
        }
        return String.format(Locale.ROOT, "%+.0f %%", change * 100);
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, Math.abs(value) >= 100 ? "%.1f" : "%.4g", value);
    }
}
