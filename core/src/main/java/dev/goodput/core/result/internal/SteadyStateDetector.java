package dev.goodput.core.result.internal;

import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.SteadyState;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.math3.stat.regression.SimpleRegression;

/**
 * Finds the steady part of a run's measurement window, a pure function of the measured requests.
 *
 * <ol>
 *   <li>The requests are binned into {@link LoadSeries} batches sized to the run.
 *   <li>MSER-5 truncation (White 1997; White, Cobb and Spratt 2000; {@link Mser}) is applied to the arrival
 *       (offered) and completion (achieved) series from the start, to what is left, reversed, from the end, and once more from
 *       the start without the drain; the window is what no series truncates. A truncation that reaches the middle
 *       of the search cuts there, and the checks decide.
 *   <li>The window is then checked, because MSER alone accepts a slow steady drift: the completions inside must
 *       balance the arrivals inside ({@code |arrivals - completions| <= 10 % of arrivals + 2 sqrt(arrivals)}, the
 *       square root allowing for Poisson noise), and the in-flight series must not drift (the least-squares line
 *       through it may change by at most a quarter of the mean plus one request over the window).
 * </ol>
 *
 * <p>Fewer than {@value #MIN_REQUESTS} measured requests, or a window under {@value #MIN_BATCHES} batches, is too
 * little to tell a ramp from noise and reports no steady state with that reason. So is one wave: requests all meant
 * to start within less time than the median request took (a closed loop whose users each send once), which only
 * drains.
 */
public final class SteadyStateDetector {

    /** Below this many measured requests a window cannot be told from noise. */
    public static final int MIN_REQUESTS = 100;

    /** The fewest batches a window may span. */
    static final int MIN_BATCHES = 4;

    private SteadyStateDetector() {}

    /** Finds the steady window of a run from its records; warm-up and cool-down requests are left out. */
    public static SteadyState detect(List<RequestRecord> records) {
        List<RequestRecord> measured =
                records.stream().filter(r -> r.phase() == Phase.MEASURED).toList();
        long[] intended =
                measured.stream().mapToLong(RequestRecord::intendedNanos).toArray();
        long[] dispatched =
                measured.stream().mapToLong(RequestRecord::dispatchedNanos).toArray();
        long[] ended = measured.stream().mapToLong(RequestRecord::endNanos).toArray();
        return detect(intended, dispatched, ended);
    }

    /**
     * Finds the steady window from each request's intended start, dispatch ({@link RequestRecord#ABSENT} if never
     * sent) and end, all on the run's clock.
     */
    public static SteadyState detect(long[] intended, long[] dispatched, long[] ended) {
        int n = intended.length;
        if (n < MIN_REQUESTS) {
            return SteadyState.notFound(
                    n,
                    "too few measured requests to tell a ramp from noise (" + n + ", needs at least " + MIN_REQUESTS
                            + ")");
        }
        Optional<String> oneWave = oneWave(intended, ended);
        if (oneWave.isPresent()) {
            return SteadyState.notFound(n, oneWave.get());
        }
        LoadSeries series = LoadSeries.of(intended, dispatched, ended);
        // The in-flight count wanders slowly (it is a sum over a request's lifetime), which MSER mistakes for a
        // ramp; the rates are counts per batch with little memory, and they show both ramps: completions lag the
        // arrivals by a lifetime at the start, arrivals stop before the drain. The in-flight count is checked for
        // drift below instead.
        double[][] all = {series.arrivals(), series.completions()};
        int batches = series.batches();
        // Forward, backward, then forward again without the drain, which the first pass saw.
        int from = 0;
        int to = batches;
        for (int pass = 0; pass < 3; pass++) {
            boolean forward = pass != 1;
            int cutAll = 0;
            for (int s = 0; s < all.length; s++) {
                double[] slice =
                        forward ? java.util.Arrays.copyOfRange(all[s], 0, to) : Mser.reversed(all[s], from, batches);
                int cut = Mser.truncation(slice);
                if (cut == Mser.UNSETTLED) {
                    // MSER is thrown by one outlier in a series with little noise (a pause in a deterministic
                    // open loop), so a minimum at the end of the search only cuts there; a real trend fails the
                    // balance and drift checks below.
                    cut = slice.length / 2;
                }
                cutAll = Math.max(cutAll, cut);
            }
            if (forward) {
                from = cutAll;
            } else {
                to = batches - cutAll;
            }
        }
        if (to - from < MIN_BATCHES) {
            return SteadyState.notFound(
                    n,
                    "the stable part is too short (" + (to - from) + " batches of " + millis(series.batchNanos())
                            + ", needs " + MIN_BATCHES + ")");
        }
        long start = series.boundary(from);
        long end = series.boundary(to);
        long arrivals = 0;
        long completions = 0;
        for (int i = 0; i < n; i++) {
            arrivals += intended[i] >= start && intended[i] < end ? 1 : 0;
            completions += ended[i] >= start && ended[i] < end ? 1 : 0;
        }
        double seconds = (end - start) / 1e9;
        double meanInFlight = 0;
        SimpleRegression drift = new SimpleRegression();
        for (int b = from; b < to; b++) {
            meanInFlight += series.inFlight()[b] / (to - from);
            drift.addData(b, series.inFlight()[b]);
        }
        if (Math.abs(arrivals - completions) > 0.1 * arrivals + 2 * Math.sqrt(arrivals)) {
            return SteadyState.notFound(
                    n,
                    String.format(
                                    Locale.ROOT,
                                    "in its most stable part the achieved rate"
                                            + " (%.2f/s) did not keep up with the offered rate (%.2f/s)",
                                    completions / seconds,
                                    arrivals / seconds)
                            + trend(series));
        }
        double change = drift.getSlope() * (to - from);
        if (Math.abs(change) > 0.25 * meanInFlight + 1) {
            return SteadyState.notFound(
                    n,
                    String.format(
                            Locale.ROOT,
                            "the in-flight count drifted by %+.1f" + " (mean %.1f) across its most stable part",
                            change,
                            meanInFlight));
        }
        return new SteadyState(
                true, start, end, arrivals, n, arrivals / seconds, completions / seconds, meanInFlight, null);
    }

    /**
     * Returns why a run that was one wave has no steady state: its requests were all meant to start within less
     * time than the median request took (a closed loop whose users each sent one request, all at once), so no
     * request followed another's end and the load only drained. Binning such a run would cut nanoseconds of
     * intended starts into batches and read rates of trillions a second.
     */
    private static Optional<String> oneWave(long[] intended, long[] ended) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (long start : intended) {
            first = Math.min(first, start);
            last = Math.max(last, start);
        }
        long[] lifetimes = new long[intended.length];
        for (int i = 0; i < intended.length; i++) {
            lifetimes[i] = ended[i] - intended[i];
        }
        java.util.Arrays.sort(lifetimes);
        long median = lifetimes[lifetimes.length / 2];
        if (last - first >= median) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "the %d measured requests were one wave: all meant to start within %s, less than the median"
                        + " request took (%s), so none waited for another's end and the load only drained",
                intended.length,
                millis(last - first),
                millis(median)));
    }

    /** Describes how far the in-flight count rose, to show a queue that kept growing. */
    private static String trend(LoadSeries series) {
        double[] inFlight = series.inFlight();
        int peak = 0;
        for (int b = 1; b < inFlight.length; b++) {
            peak = inFlight[b] > inFlight[peak] ? b : peak;
        }
        return String.format(
                Locale.ROOT,
                "; in flight rose from %.1f to %.1f at %.0f%% of the run",
                inFlight[0],
                inFlight[peak],
                100.0 * (peak + 1) / inFlight.length);
    }

    private static String millis(double nanos) {
        return String.format(Locale.ROOT, nanos < 10e6 ? "%.2f ms" : "%.0f ms", nanos / 1e6);
    }
}
