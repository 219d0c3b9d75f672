package dev.goodput.core.result.internal;

import dev.goodput.core.result.ClientHealth;
import dev.goodput.core.stats.internal.Distribution;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/** Judges from a run's send lag and the client's own pauses whether the client kept up. */
final class ClientHealthJudge {

    /** A second of the pause meter's millisecond wake-ups: less says little about a p99. */
    private static final long MIN_PAUSE_SAMPLES = 1_000;

    private ClientHealthJudge() {}

    /**
     * Judges whether the client kept up. Sends: the p99 send lag against the limit, or the p90 below 100 samples
     * (where a p99 is just the maximum, and one hiccup such as opening every connection at once would decide);
     * fewer than 10 samples say nothing either way. Receipts: the p99 of the client's pauses over the run's time,
     * once there is a second of it, against the same limit.
     */
    static ClientHealth judge(Distribution sendLag, Histogram pauses, long limitNanos, boolean openLoop) {
        List<String> reasons = new ArrayList<>();
        double lag = Double.NaN;
        if (sendLag.count() >= 10) {
            double percentile = sendLag.count() >= 100 ? 99 : 90;
            lag = sendLag.percentile(percentile);
            if (lag > limitNanos) {
                String consequence = openLoop
                        ? "so the server was offered less load than the profile asked for"
                        : "so the users waited longer between requests than their think time";
                reasons.add(String.format(
                        Locale.ROOT,
                        "the client fell behind its schedule: p%s send lag %.2f ms exceeds %.2f ms, %s",
                        dev.goodput.core.internal.Units.formatPercentile(percentile),
                        lag / 1e6,
                        limitNanos / 1e6,
                        consequence));
            }
        }
        double pause = Double.NaN;
        if (pauses != null && pauses.getTotalCount() >= MIN_PAUSE_SAMPLES) {
            pause = pauses.getValueAtPercentile(99);
            if (pause > limitNanos) {
                reasons.add(String.format(
                        Locale.ROOT,
                        "the client's own threads waited to run: p99 pause %.2f ms exceeds %.2f ms (garbage"
                                + " collection, compilation or a machine busy with other work), so tokens received"
                                + " meanwhile were stamped late",
                        pause / 1e6,
                        limitNanos / 1e6));
            }
        }
        return new ClientHealth(
                reasons.isEmpty(), lag, limitNanos, reasons.isEmpty() ? null : String.join("; ", reasons), pause);
    }
}
