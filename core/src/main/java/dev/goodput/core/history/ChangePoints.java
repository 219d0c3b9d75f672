package dev.goodput.core.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TTest;
import org.apiguardian.api.API;

/**
 * Finds the points where a series of runs (one value per commit, oldest first) shifted, in the manner of Apache
 * Otava (formerly Hunter) and Nyrkiö:
 *
 * <ol>
 *   <li>every candidate split of a segment is judged by Welch's two-sample t-test between a window of up to
 *       {@link #window()} values before it and up to as many from it on (never crossing the segment's ends), with at
 *       least {@link #minPointsPerSide()} on each side;
 *   <li>among the candidates whose relative change {@code |after / before - 1|} reaches {@link #minChange()}, the
 *       one with the largest Student's (pooled-variance) |t| is the segment's best split, the earliest on a tie;
 *   <li>it is accepted when Welch's p-value of its windows is at most {@link #maxPValue()}, and the search recurses
 *       into both halves (binary segmentation); otherwise the segment has no change point.
 * </ol>
 *
 * The split is placed by the pooled t because near a segment's end the windows differ in size, and there Welch's
 * p-value, whose degrees of freedom grow when a shifted value joins the larger window, can prefer a split one entry
 * late; the pooled t peaks at the step itself.
 *
 * Otava's defaults are a window of 50 and p = 0.001; Nyrkiö adds a minimum change of 5 %. Here the window is
 * {@value #DEFAULT_WINDOW}, p {@value #DEFAULT_MAX_P_VALUE}, the minimum change {@value #DEFAULT_MIN_CHANGE} and
 * {@value #DEFAULT_MIN_POINTS_PER_SIDE} points per side. Welch's variances make a single outlier widen its window's
 * spread instead of moving a mean past the threshold, so one bad night is not a change point. The t-test assumes
 * independent values: nightly runs of separate JVMs are, unlike the requests within one run. Deterministic: no
 * permutations, no random numbers. Immutable.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class ChangePoints {

    /** The values on each side of a split that the t-test compares, at most. */
    public static final int DEFAULT_WINDOW = 30;
    /** The largest p-value accepted. */
    public static final double DEFAULT_MAX_P_VALUE = 0.001;
    /** The smallest relative change accepted. */
    public static final double DEFAULT_MIN_CHANGE = 0.05;
    /** The fewest values on each side of a split. */
    public static final int DEFAULT_MIN_POINTS_PER_SIDE = 5;

    private final int window;
    private final double maxPValue;
    private final double minChange;
    private final int minPointsPerSide;

    private ChangePoints(int window, double maxPValue, double minChange, int minPointsPerSide) {
        if (minPointsPerSide < 2) {
            throw InvalidSettingException.of(
                    "minPointsPerSide", minPointsPerSide, "must be at least 2 (a t-test needs a variance)");
        }
        if (window < minPointsPerSide) {
            throw InvalidSettingException.of(
                    "window", window, "must be at least minPointsPerSide (" + minPointsPerSide + ")");
        }
        if (!(maxPValue > 0 && maxPValue <= 1)) {
            throw InvalidSettingException.of("maxPValue", maxPValue, "must be above 0 and at most 1");
        }
        if (!(minChange >= 0 && Double.isFinite(minChange))) {
            throw InvalidSettingException.of("minChange", minChange, "must be a number of at least 0");
        }
        this.window = window;
        this.maxPValue = maxPValue;
        this.minChange = minChange;
        this.minPointsPerSide = minPointsPerSide;
    }

    /** Returns the detector with the default window, p-value, minimum change and points per side. */
    public static ChangePoints defaults() {
        return new ChangePoints(DEFAULT_WINDOW, DEFAULT_MAX_P_VALUE, DEFAULT_MIN_CHANGE, DEFAULT_MIN_POINTS_PER_SIDE);
    }

    /** Returns a copy comparing up to {@code window} values on each side of a split. */
    public ChangePoints window(int window) {
        return new ChangePoints(window, maxPValue, minChange, minPointsPerSide);
    }

    /** Returns a copy accepting a split only at a p-value of at most {@code maxPValue}. */
    public ChangePoints maxPValue(double maxPValue) {
        return new ChangePoints(window, maxPValue, minChange, minPointsPerSide);
    }

    /** Returns a copy accepting a split only with a relative change of at least {@code minChange} (0.05 is 5 %). */
    public ChangePoints minChange(double minChange) {
        return new ChangePoints(window, maxPValue, minChange, minPointsPerSide);
    }

    /** Returns a copy needing at least {@code minPointsPerSide} values on each side of a split. */
    public ChangePoints minPointsPerSide(int minPointsPerSide) {
        return new ChangePoints(window, maxPValue, minChange, minPointsPerSide);
    }

    public int window() {
        return window;
    }

    public double maxPValue() {
        return maxPValue;
    }

    public double minChange() {
        return minChange;
    }

    public int minPointsPerSide() {
        return minPointsPerSide;
    }

    /**
     * Returns the change points of every figure of a test's entries (oldest first), by figure key in the order the
     * entries first name them; a figure without change points maps to an empty list.
     */
    public Map<String, List<ChangePoint>> findAll(List<HistoryEntry> entries) {
        Map<String, List<ChangePoint>> found = new LinkedHashMap<>();
        for (HistoryEntry entry : entries) {
            for (String metric : entry.figures().keySet()) {
                found.computeIfAbsent(metric, key -> find(entries, key));
            }
        }
        return found;
    }

    /**
     * Returns the change points of one figure over a test's entries (oldest first), ordered by index. Entries
     * without the figure (NaN) are left out of the series; a change point's index is still its entry's position.
     */
    public List<ChangePoint> find(List<HistoryEntry> entries, String metric) {
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            if (Double.isFinite(entries.get(i).figure(metric))) {
                positions.add(i);
            }
        }
        double[] values = positions.stream()
                .mapToDouble(i -> entries.get(i).figure(metric))
                .toArray();
        List<ChangePoint> found = new ArrayList<>();
        for (ChangePoint point : find(metric, values)) {
            HistoryEntry entry = entries.get(positions.get(point.index()));
            found.add(new ChangePoint(
                    metric,
                    positions.get(point.index()),
                    entry.commit(),
                    point.before(),
                    point.after(),
                    point.magnitude(),
                    point.pValue()));
        }
        return found;
    }

    /**
     * Returns the change points of a series of finite values (oldest first), ordered by index, with empty commits.
     *
     * @throws IllegalArgumentException when a value is not finite
     */
    public List<ChangePoint> find(String metric, double[] values) {
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(metric + " value " + i + " is not finite: " + values[i]);
            }
        }
        List<ChangePoint> found = new ArrayList<>();
        segment(metric, values, 0, values.length, found);
        found.sort(Comparator.comparingInt(ChangePoint::index));
        return found;
    }

    /** Finds the best split of {@code values[from, to)}, and when it is accepted, the splits of both halves. */
    private void segment(String metric, double[] values, int from, int to, List<ChangePoint> found) {
        Candidate best = null;
        for (int split = from + minPointsPerSide; split <= to - minPointsPerSide; split++) {
            double[] left = Arrays.copyOfRange(values, Math.max(from, split - window), split);
            double[] right = Arrays.copyOfRange(values, split, Math.min(to, split + window));
            Candidate candidate = Candidate.of(split, left, right);
            if (candidate.magnitude >= minChange
                    && !Double.isNaN(candidate.t)
                    && (best == null || candidate.t > best.t)) {
                best = candidate;
            }
        }
        if (best == null || best.pValue > maxPValue) {
            return;
        }
        found.add(new ChangePoint(metric, best.split, "", best.before, best.after, best.magnitude, best.pValue));
        segment(metric, values, from, best.split, found);
        segment(metric, values, best.split, to, found);
    }

    /** One split judged: the windows' means, the relative change, Student's |t| and Welch's p-value. */
    private record Candidate(int split, double before, double after, double magnitude, double t, double pValue) {

        private static final TTest T_TEST = new TTest();

        static Candidate of(int split, double[] left, double[] right) {
            double before = StatUtils.mean(left);
            double after = StatUtils.mean(right);
            double magnitude = before == after ? 0 : Math.abs(after / before - 1);
            if (StatUtils.variance(left) == 0 && StatUtils.variance(right) == 0) {
                // Two constant windows: different levels are certainly a shift; equal ones certainly not.
                return before == after
                        ? new Candidate(split, before, after, 0, 0, 1)
                        : new Candidate(split, before, after, magnitude, Double.POSITIVE_INFINITY, 0);
            }
            return new Candidate(
                    split,
                    before,
                    after,
                    magnitude,
                    Math.abs(T_TEST.homoscedasticT(left, right)),
                    T_TEST.tTest(left, right));
        }
    }
}
