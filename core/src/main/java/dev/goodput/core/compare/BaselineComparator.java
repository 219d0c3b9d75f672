package dev.goodput.core.compare;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.internal.Units;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Compares a gate's run with its baseline (see {@code docs/ci-gates.md}).
 *
 * <p>First validity: the two must have run the same workload, load and server with the same Goodput version, and
 * on both sides the client must have kept up and delivered the load it intended (sent rate within
 * {@link #maximumLoadDrift()} of the intended one); otherwise the comparison is {@link ChangeVerdict#INVALID} with
 * the differences listed. Then each metric: the key ones (TTFT, TPOT and E2EL at p50 and p99, goodput and output
 * token throughput) and those of the objectives given. The change {@code current / baseline - 1} gets an interval
 * on the log scale from both sides' standard errors; each side's error accounts for correlation between
 * successive requests and, with two or more trials, is at least the spread between trials (Student t, Welch's
 * degrees of freedom). The verdict then weighs the interval against the minimum practical change {@code m}:
 * REGRESSED when the interval lies wholly on the worse side of zero and the estimate is worse by at least {@code m};
 * IMPROVED likewise on the better side; UNCHANGED when the interval lies inside {@code (-m, +m)}; else
 * INCONCLUSIVE. Immutable.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class BaselineComparator {

    /** The default minimum practical change, 10 %. */
    public static final double DEFAULT_MINIMUM_CHANGE = 0.10;

    /** The default confidence level of the intervals on changes, 95 %. */
    public static final double DEFAULT_CONFIDENCE = 0.95;

    /** The default largest shortfall of the sent rate against the intended one, 5 %. */
    public static final double DEFAULT_MAXIMUM_LOAD_DRIFT = 0.05;

    private final double minimumChange;
    private final double confidence;
    private final double maximumLoadDrift;
    private final List<SloSpec> objectives;

    private BaselineComparator(
            double minimumChange, double confidence, double maximumLoadDrift, List<SloSpec> objectives) {
        this.minimumChange = minimumChange;
        this.confidence = confidence;
        this.maximumLoadDrift = maximumLoadDrift;
        this.objectives = objectives;
    }

    /** Returns a comparator with the defaults and no objectives. */
    public static BaselineComparator defaults() {
        return new BaselineComparator(
                DEFAULT_MINIMUM_CHANGE, DEFAULT_CONFIDENCE, DEFAULT_MAXIMUM_LOAD_DRIFT, List.of());
    }

    /**
     * Returns a copy with another minimum practical change.
     *
     * @param value a fraction, at least 0 and below 1, for example 0.10
     * @throws InvalidSettingException naming the value if it is out of range
     */
    public BaselineComparator minimumChange(double value) {
        if (!(value >= 0 && value < 1)) {
            throw InvalidSettingException.of("minimumChange", value, "must be at least 0 and below 1");
        }
        return new BaselineComparator(value, confidence, maximumLoadDrift, objectives);
    }

    /** Returns a copy with another confidence level, strictly between 0 and 1. */
    public BaselineComparator confidence(double value) {
        if (!(value > 0 && value < 1)) {
            throw InvalidSettingException.of("confidence", value, "must be strictly between 0 and 1");
        }
        return new BaselineComparator(minimumChange, value, maximumLoadDrift, objectives);
    }

    /** Returns a copy with another largest load drift, a fraction between 0 and 1. */
    public BaselineComparator maximumLoadDrift(double value) {
        if (!(value >= 0 && value < 1)) {
            throw InvalidSettingException.of("maximumLoadDrift", value, "must be at least 0 and below 1");
        }
        return new BaselineComparator(minimumChange, confidence, value, objectives);
    }

    /** Returns a copy that also compares the statistics of these objectives. */
    public BaselineComparator objectives(List<SloSpec> value) {
        return new BaselineComparator(minimumChange, confidence, maximumLoadDrift, List.copyOf(value));
    }

    /** Returns the minimum practical change. */
    public double minimumChange() {
        return minimumChange;
    }

    /** Returns the largest load drift a valid comparison allows. */
    public double maximumLoadDrift() {
        return maximumLoadDrift;
    }

    /**
     * Returns the comparison with a baseline that could not be read: {@link ChangeVerdict#INVALID}, {@code why} its
     * one difference, so that the gate's policy for an invalid comparison decides, as for any other.
     *
     * @param why the reason, for example {@code RunDigest.read}'s message
     */
    public Comparison unreadable(String why, RunDigest current) {
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(current, "current");
        return new Comparison(
                ChangeVerdict.INVALID,
                List.of(why),
                List.of(),
                List.of(),
                minimumChange,
                confidence,
                0,
                current.trials().size());
    }

    /** Compares the current run with its baseline. */
    public Comparison compare(RunDigest baseline, RunDigest current) {
        Objects.requireNonNull(baseline, "baseline");
        Objects.requireNonNull(current, "current");
        List<String> differences = differences(baseline, current);
        int baseTrials = baseline.trials().size();
        int currentTrials = current.trials().size();
        if (!differences.isEmpty()) {
            return new Comparison(
                    ChangeVerdict.INVALID,
                    differences,
                    List.of(),
                    List.of(),
                    minimumChange,
                    confidence,
                    baseTrials,
                    currentTrials);
        }
        List<MetricChange> changes = new ArrayList<>();
        for (Compared compared : compared()) {
            changes.add(change(compared, baseline, current));
        }
        List<String> notes = new ArrayList<>();
        if (baseTrials < 2 || currentTrials < 2) {
            notes.add("with one trial on a side, run-to-run variation is not measured; on a shared runner use"
                    + " two or more trials per side (@Trials) before trusting a REGRESSED verdict");
        }
        return new Comparison(
                overall(changes), List.of(), changes, notes, minimumChange, confidence, baseTrials, currentTrials);
    }

    private static ChangeVerdict overall(List<MetricChange> changes) {
        for (ChangeVerdict verdict :
                List.of(ChangeVerdict.REGRESSED, ChangeVerdict.INCONCLUSIVE, ChangeVerdict.IMPROVED)) {
            if (changes.stream().anyMatch(change -> change.verdict() == verdict)) {
                return verdict;
            }
        }
        return ChangeVerdict.UNCHANGED;
    }

    /** What is compared: a percentile (0 to 100), a mean (NaN percentile) or a rate of a metric. */
    record Compared(String name, Metric metric, double percentile) {
        boolean isRate() {
            return metric.kind() == Metric.Kind.RUN;
        }
    }

    List<Compared> compared() {
        Set<Compared> compared = new LinkedHashSet<>();
        for (Metric metric : List.of(Metric.TTFT, Metric.TPOT, Metric.E2EL)) {
            compared.add(percentile(metric, 50));
            compared.add(percentile(metric, 99));
        }
        compared.add(new Compared(Metric.GOODPUT.displayName(), Metric.GOODPUT, Double.NaN));
        compared.add(
                new Compared(Metric.OUTPUT_TOKEN_THROUGHPUT.displayName(), Metric.OUTPUT_TOKEN_THROUGHPUT, Double.NaN));
        for (SloSpec slo : objectives) {
            if (slo.metric().kind() == Metric.Kind.RUN && RunDigest.RATES.contains(slo.metric())) {
                compared.add(new Compared(slo.metric().displayName(), slo.metric(), Double.NaN));
            } else if (RunDigest.SAMPLED.contains(slo.metric())) {
                if (slo.statistic() == SloSpec.Statistic.PERCENTILE) {
                    compared.add(percentile(slo.metric(), slo.percentile()));
                } else if (slo.statistic() == SloSpec.Statistic.MEAN) {
                    compared.add(new Compared(slo.metric().displayName() + " mean", slo.metric(), Double.NaN));
                }
            }
        }
        return List.copyOf(compared);
    }

    private static Compared percentile(Metric metric, double percentile) {
        return new Compared(metric.displayName() + " p" + Units.formatPercentile(percentile), metric, percentile);
    }

    private MetricChange change(Compared compared, RunDigest baseline, RunDigest current) {
        SideEstimate base = SideEstimate.of(compared, baseline, confidence);
        SideEstimate now = SideEstimate.of(compared, current, confidence);
        boolean lowerIsBetter = !compared.isRate();
        double change = now.value() / base.value() - 1;
        if (!(base.value() > 0) || !(now.value() > 0) || !base.hasError() || !now.hasError()) {
            String why = !(base.value() > 0) || !(now.value() > 0)
                    ? "a value of 0 or none has no relative change"
                    : "too few samples for an interval";
            return new MetricChange(
                    compared.name(),
                    lowerIsBetter,
                    base.value(),
                    now.value(),
                    change,
                    Double.NaN,
                    Double.NaN,
                    ChangeVerdict.INCONCLUSIVE,
                    why);
        }
        double logRatio = Math.log(now.value() / base.value());
        double variance = base.relativeError() * base.relativeError() + now.relativeError() * now.relativeError();
        double critical = dev.goodput.core.stats.internal.StudentT.twoSided(confidence, SideEstimate.welch(base, now));
        double halfWidth = critical * Math.sqrt(variance);
        double lower = Math.exp(logRatio - halfWidth) - 1;
        double upper = Math.exp(logRatio + halfWidth) - 1;
        return new MetricChange(
                compared.name(),
                lowerIsBetter,
                base.value(),
                now.value(),
                change,
                lower,
                upper,
                verdict(change, lower, upper, lowerIsBetter),
                base.method() + (base.method().equals(now.method()) ? "" : " / " + now.method()));
    }

    /**
     * Returns what a change {@code current / baseline - 1} with the interval {@code [lower, upper]} means against the
     * minimum change, as the class says; A/B runs ({@code dev.goodput.core.ab}) judge their paired changes with it.
     *
     * @param lowerIsBetter whether a decrease is an improvement (latencies) or a regression (rates)
     */
    public ChangeVerdict verdict(double change, double lower, double upper, boolean lowerIsBetter) {
        double worse = lowerIsBetter ? change : -change;
        double worseLow = lowerIsBetter ? lower : -upper;
        double worseHigh = lowerIsBetter ? upper : -lower;
        if (worseLow > 0 && worse >= minimumChange) {
            return ChangeVerdict.REGRESSED;
        }
        if (worseHigh < 0 && -worse >= minimumChange) {
            return ChangeVerdict.IMPROVED;
        }
        if (worseLow > -minimumChange && worseHigh < minimumChange) {
            return ChangeVerdict.UNCHANGED;
        }
        return ChangeVerdict.INCONCLUSIVE;
    }

    private List<String> differences(RunDigest baseline, RunDigest current) {
        List<String> differences = new ArrayList<>();
        Set<String> keys = new LinkedHashSet<>(baseline.identity().keySet());
        keys.addAll(current.identity().keySet());
        for (String key : keys) {
            String before = baseline.identity().get(key);
            String now = current.identity().get(key);
            if (!Objects.equals(before, now)) {
                differences.addAll(Identity.describeDifference(key, before, now));
            }
        }
        delivery("baseline", baseline, differences);
        delivery("current run", current, differences);
        return differences;
    }

    private void delivery(String side, RunDigest digest, List<String> differences) {
        for (int i = 0; i < digest.trials().size(); i++) {
            RunDigest.Trial trial = digest.trials().get(i);
            String which = side + (digest.trials().size() > 1 ? " trial " + (i + 1) : "");
            if (!trial.clientTrustworthy()) {
                differences.add(which + ": the client did not keep up (" + trial.clientProblem() + ")");
            }
            double shortfall = 1 - trial.achievedRate() / trial.intendedRate();
            if (shortfall > maximumLoadDrift) {
                differences.add(String.format(
                        Locale.ROOT,
                        "%s: sent %.3f requests/s of the %.3f intended (%s), more than the %.0f %% drift allowed",
                        which,
                        trial.achievedRate(),
                        trial.intendedRate(),
                        MetricChange.percent(-shortfall),
                        maximumLoadDrift * 100));
            }
        }
    }
}
