package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.RunSpec;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.slo.internal.SloEvaluator;
import dev.goodput.core.stats.internal.ExactDistribution;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Several trials of the same run judged together: each objective gets one verdict from all trials, and each key
 * figure its variation between trials.
 *
 * <p>A per-request objective is judged on the trials' samples pooled, with the same interval as a single run's; a run-level one on the mean of the trials' values with a Student
 * t interval; a pooled one (ITL, ICL), whose samples a result does not keep, is MET when every trial met it,
 * VIOLATED when every trial violated it, and otherwise INCONCLUSIVE. One trial's summary is that trial's verdicts.
 *
 * @param trials the trials, in the order they ran (at least one)
 * @param verdicts one verdict per objective of the trials' spec
 * @param variation the coefficient of variation between trials (sample standard deviation over mean) of each key
 *     figure, NaN with one trial; keys as in {@link #KEY_FIGURES}
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record TrialSummary(List<RunResult> trials, List<SloVerdict> verdicts, Map<String, Double> variation) {

    /** The key figures whose variation between trials is reported. */
    public static final List<String> KEY_FIGURES =
            List.of("goodput", "output token throughput", "TTFT p50", "TTFT p99", "TPOT p50", "TPOT p99", "E2EL p99");

    public TrialSummary {
        trials = List.copyOf(trials);
        verdicts = List.copyOf(verdicts);
        variation = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(variation));
        if (trials.isEmpty()) {
            throw new IllegalArgumentException("a trial summary needs at least one trial");
        }
    }

    /** Judges the given trials of one spec together. */
    public static TrialSummary of(List<RunResult> trials) {
        if (trials.isEmpty()) {
            throw new IllegalArgumentException("a trial summary needs at least one trial");
        }
        RunSpec spec = trials.get(0).spec();
        List<SloVerdict> verdicts = new ArrayList<>();
        for (int i = 0; i < spec.objectives().size(); i++) {
            verdicts.add(trials.size() == 1 ? trials.get(0).verdicts().get(i) : together(trials, i));
        }
        Map<String, Double> variation = new LinkedHashMap<>();
        for (String figure : KEY_FIGURES) {
            variation.put(
                    figure,
                    variation(
                            trials.stream().mapToDouble(t -> figure(t, figure)).toArray()));
        }
        return new TrialSummary(trials, verdicts, variation);
    }

    /** Returns whether every objective was met over the trials. */
    public boolean allMet() {
        return verdicts.stream().allMatch(SloVerdict::isMet);
    }

    /** Returns a key figure of one trial: latencies in milliseconds, rates per second. */
    public static double figure(RunResult trial, String name) {
        return switch (name) {
            case "goodput" -> trial.goodput();
            case "output token throughput" -> trial.value(Metric.OUTPUT_TOKEN_THROUGHPUT);
            case "TTFT p50" -> trial.summary(Metric.TTFT).percentile(50) / 1e6;
            case "TTFT p99" -> trial.summary(Metric.TTFT).percentile(99) / 1e6;
            case "TPOT p50" -> trial.summary(Metric.TPOT).percentile(50) / 1e6;
            case "TPOT p99" -> trial.summary(Metric.TPOT).percentile(99) / 1e6;
            case "E2EL p99" -> trial.summary(Metric.E2EL).percentile(99) / 1e6;
            default -> throw new IllegalArgumentException("unknown key figure '" + name + "'; known: " + KEY_FIGURES);
        };
    }

    private static SloVerdict together(List<RunResult> trials, int index) {
        SloSpec slo = trials.get(0).spec().objectives().get(index);
        double confidence = trials.get(0).spec().confidence();
        long measured =
                trials.stream().mapToLong(t -> t.accounting().measured()).sum();
        return switch (slo.metric().kind()) {
            case RUN ->
                SloEvaluator.evaluateTrials(
                        slo,
                        trials.stream().mapToDouble(t -> t.value(slo.metric())).toArray(),
                        measured,
                        confidence);
            case REQUEST -> SloEvaluator.evaluate(slo, pooled(trials, slo.metric()), confidence);
            case POOLED -> everyTrial(trials, index);
        };
    }

    private static ExactDistribution pooled(List<RunResult> trials, Metric metric) {
        List<Double> values = new ArrayList<>();
        for (RunResult trial : trials) {
            for (RequestRecord record : trial.records()) {
                boolean counted = metric == Metric.SEND_LAG || record.isSuccess();
                if (record.phase() == Phase.MEASURED && counted) {
                    double value = ResultCalculator.requestValue(metric, record);
                    if (!Double.isNaN(value)) {
                        values.add(value);
                    }
                }
            }
        }
        // Trial after trial, each in schedule order, so that the interval sees how successive requests move together.
        return ExactDistribution.ofOrdered(
                values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static SloVerdict everyTrial(List<RunResult> trials, int index) {
        List<SloVerdict> each =
                trials.stream().map(t -> t.verdicts().get(index)).toList();
        long met = each.stream().filter(v -> v.verdict() == Verdict.MET).count();
        long violated =
                each.stream().filter(v -> v.verdict() == Verdict.VIOLATED).count();
        double[] measured =
                each.stream().mapToDouble(SloVerdict::measured).sorted().toArray();
        double median = measured[measured.length / 2];
        long samples = each.stream().mapToLong(SloVerdict::sampleCount).sum();
        Verdict verdict =
                met == each.size() ? Verdict.MET : violated == each.size() ? Verdict.VIOLATED : Verdict.INCONCLUSIVE;
        String reason = verdict == Verdict.INCONCLUSIVE
                ? "met in " + met + ", violated in " + violated + " of " + each.size() + " trials"
                : null;
        return new SloVerdict(each.get(0).objective(), verdict, median, null, samples, Double.NaN, reason);
    }

    private static double variation(double[] values) {
        if (values.length < 2) {
            return Double.NaN;
        }
        double mean = java.util.Arrays.stream(values).average().orElse(Double.NaN);
        double squares = 0;
        for (double value : values) {
            squares += (value - mean) * (value - mean);
        }
        return Math.sqrt(squares / (values.length - 1)) / mean;
    }
}
