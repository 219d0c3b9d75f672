package dev.goodput.core.result.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;

import dev.goodput.core.RunSpec;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Load;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.Accounting;
import dev.goodput.core.result.FailureBreakdown;
import dev.goodput.core.result.LoadStatistics;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.SteadyState;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.internal.SloEvaluator;
import dev.goodput.core.stats.Summary;
import dev.goodput.core.stats.internal.Distribution;
import dev.goodput.core.stats.internal.ExactDistribution;
import dev.goodput.core.stats.internal.HistogramDistribution;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Turns what a run measured ({@link RunSnapshot}) into its result, exactly as {@code docs/metrics.md} defines the metrics: the
 * measurement window, the per-request and pooled distributions, the run-level rates, goodput, the verdicts,
 * the client's health and why the requests that failed did. A pure function of its inputs.
 *
 * <p>Longer than 300 lines because it is the one function from measurement to result that metrics.md defines;
 * splitting it would spread one definition over several files.
 */
public final class ResultCalculator {

    private ResultCalculator() {}

    /**
     * Computes the result of a run from what it measured, and from nothing else.
     *
     * @param spec what the run was asked to do and judge
     * @param environment where it ran
     * @param snapshot everything it measured
     */
    public static RunResult compute(RunSpec spec, RunEnvironment environment, RunSnapshot snapshot) {
        return compute(spec, environment, snapshot, spec.confidence());
    }

    /**
     * Computes the result of a run from what it measured, its verdicts on intervals at {@code verdictConfidence}
     * instead of the spec's: a look of a sequential run judges at a higher level, so that all its looks together
     * keep the spec's ({@code SequentialBoundary}).
     */
    public static RunResult compute(
            RunSpec spec, RunEnvironment environment, RunSnapshot snapshot, double verdictConfidence) {
        // The steady state is the server's and the whole load's: every class is judged over the run's window.
        SteadyState window = SteadyStateDetector.detect(snapshot.records().stream()
                .filter(record -> record.phase() == Phase.MEASURED)
                .toList());
        // The spec's notes (its sample sizes), found once for the run and every class's result.
        List<String> notes = List.copyOf(spec.notes());
        return compute(
                spec,
                environment,
                snapshot,
                null,
                ClassSplit.results(spec, environment, snapshot, window, verdictConfidence, notes),
                window,
                verdictConfidence,
                notes);
    }

    /**
     * Computes the result of a run, or of one workload class of it ({@code onlyClass}, whose objectives alone it
     * judges); a whole run takes the verdicts on class objectives from its {@code classes}. Both are judged over
     * the run's steady-state {@code window} when the spec asks for it. {@code notes} are the spec's ({@link
     * RunSpec#notes()}).
     */
    static RunResult compute(
            RunSpec spec,
            RunEnvironment environment,
            RunSnapshot snapshot,
            String onlyClass,
            Map<String, RunResult> classes,
            SteadyState window,
            double confidence,
            List<String> notes) {
        List<RequestRecord> records = snapshot.records();
        List<RequestRecord> measured = new ArrayList<>();
        List<RequestRecord> successes = new ArrayList<>();
        for (RequestRecord record : records) {
            if (record.phase() == Phase.MEASURED) {
                measured.add(record);
                if (record.isSuccess()) {
                    successes.add(record);
                }
            }
        }
        LoadStatistics load = loadStatistics(
                spec.load(),
                records,
                measured,
                snapshot.peakOutputChunksPerSecond(),
                ClassSplit.share(spec, onlyClass),
                window);
        SteadyScope scope = SteadyScope.of(spec, load, measured, successes);
        measured = scope.measured();
        successes = scope.successes();
        Map<Metric, Distribution> distributions = distributions(measured, successes, snapshot);
        double[] percentiles =
                spec.percentiles().stream().mapToDouble(Double::doubleValue).toArray();
        Map<Metric, Summary> summaries = new EnumMap<>(Metric.class);
        distributions.forEach((metric, distribution) -> summaries.put(metric, distribution.summarize(percentiles)));
        long good = successes.stream()
                .filter(record -> ClassSplit.isGood(record, spec))
                .count();
        Map<Metric, Double> values = runValues(measured, successes, good, scope.windowSeconds());
        Map<Metric, RunValueIntervals.Estimate> estimates = RunValueIntervals.of(
                measured,
                successes,
                record -> ClassSplit.isGood(record, spec),
                spec.requestCriteria(),
                measured.stream().mapToLong(RequestRecord::intendedNanos).min().orElse(0),
                scope.windowSeconds(),
                confidence);

        List<SloVerdict> verdicts = new ArrayList<>();
        for (SloSpec slo : spec.objectives()) {
            if (onlyClass != null && !onlyClass.equals(slo.trafficClass())) {
                continue;
            }
            if (onlyClass == null && slo.trafficClass() != null) {
                verdicts.add(ClassSplit.verdictOf(slo, classes));
            } else if (slo.metric().kind() == Metric.Kind.RUN) {
                RunValueIntervals.Estimate estimate = estimates.get(slo.metric());
                verdicts.add(SloEvaluator.evaluateValue(
                        slo,
                        values.getOrDefault(slo.metric(), Double.NaN),
                        estimate == null ? null : estimate.interval(),
                        measured.size(),
                        estimate == null ? Double.NaN : estimate.effectiveCount()));
            } else {
                verdicts.add(SloEvaluator.evaluate(slo, distributions.get(slo.metric()), confidence));
            }
        }
        return new RunResult(
                spec,
                environment,
                records,
                Accounting.of(records),
                load,
                summaries,
                values,
                scope.judge(verdicts),
                good,
                TokenStatisticsCalculator.compute(successes, snapshot.ignoreEosRequests(), snapshot.shorterThanAsked()),
                ClientHealthJudge.judge(
                        distributions.get(Metric.SEND_LAG),
                        snapshot.clientPauses(),
                        spec.sendLagLimit().toNanos(),
                        spec.load().arrivals().isOpenLoop()),
                FailureBreakdown.of(records),
                dev.goodput.core.servermetrics.ServerMetricsResult.NONE,
                classes,
                notes,
                null,
                RunLength.FIXED);
    }

    /**
     * Returns whether a successful request met every request-level objective with its own value. A value the
     * request cannot have (TPOT of a one-token output, the stall of a one-event stream) does not fail it, as
     * in vLLM's goodput.
     */
    public static boolean isGood(RequestRecord record, List<SloSpec> requestCriteria) {
        if (!record.isSuccess()) {
            return false;
        }
        for (SloSpec slo : requestCriteria) {
            double value = requestValue(slo.metric(), record);
            if (!Double.isNaN(value) && !slo.comparison().holds(value, slo.threshold())) {
                return false;
            }
        }
        return true;
    }

    /** Returns a request's own value of a per-request metric (nanoseconds or a count), or NaN when it has none. */
    public static double requestValue(Metric metric, RequestRecord record) {
        if (StreamPhaseMetrics.covers(metric)) {
            return StreamPhaseMetrics.value(metric, record);
        }
        if (metric == Metric.TPOT) {
            return record.tpotNanos();
        }
        long value = switch (metric) {
            case TTFT -> record.ttftNanos();
            case TTFT_FROM_SEND -> record.ttftFromSendNanos();
            case QUEUE_TIME -> record.queueNanos();
            case E2EL -> record.e2elNanos();
            case MAX_STALL -> record.maxStallNanos();
            case SEND_LAG -> record.heldByConcurrencyCap() ? ABSENT : record.queueNanos();
            default -> throw new IllegalArgumentException(metric + " is not a per-request metric");
        };
        return value == ABSENT ? Double.NaN : value;
    }

    private static Map<Metric, Distribution> distributions(
            List<RequestRecord> measured, List<RequestRecord> successes, RunSnapshot snapshot) {
        Map<Metric, Distribution> distributions = new EnumMap<>(Metric.class);
        for (Metric metric : Metric.values()) {
            if (metric.kind() != Metric.Kind.REQUEST) {
                continue;
            }
            // Send lag describes the client, so it covers every measured request that was sent, whatever its
            // outcome; the other per-request metrics cover successful requests only.
            List<RequestRecord> population = metric == Metric.SEND_LAG ? measured : successes;
            double[] samples = new double[population.size()];
            int count = 0;
            for (RequestRecord record : population) {
                double value = requestValue(metric, record);
                if (!Double.isNaN(value)) {
                    samples[count++] = value;
                }
            }
            // In schedule order (the records are), so that intervals account for correlation between successive
            // requests (docs/metrics.md).
            distributions.put(metric, ExactDistribution.ofOrdered(java.util.Arrays.copyOf(samples, count)));
        }
        distributions.put(Metric.ICL, HistogramDistribution.of(snapshot.icl(), snapshot.iclBlocks()));
        distributions.put(Metric.ITL, HistogramDistribution.of(snapshot.itl(), snapshot.itlBlocks()));
        return distributions;
    }

    private static Map<Metric, Double> runValues(
            List<RequestRecord> measured, List<RequestRecord> successes, long good, double windowSeconds) {
        long inputTokens = 0;
        long outputTokens = 0;
        for (RequestRecord record : successes) {
            inputTokens += Math.max(0, record.inputTokens());
            outputTokens += record.outputTokens();
        }
        long cancelled = measured.stream()
                .filter(record -> record.outcome() == Outcome.CANCELLED)
                .count();
        Map<Metric, Double> values = new EnumMap<>(Metric.class);
        values.put(Metric.REQUEST_THROUGHPUT, rate(successes.size(), windowSeconds));
        values.put(Metric.OUTPUT_TOKEN_THROUGHPUT, rate(outputTokens, windowSeconds));
        values.put(Metric.INPUT_TOKEN_THROUGHPUT, rate(inputTokens, windowSeconds));
        values.put(Metric.TOTAL_TOKEN_THROUGHPUT, rate(inputTokens + outputTokens, windowSeconds));
        values.put(Metric.GOODPUT, rate(good, windowSeconds));
        long ended = measured.size() - cancelled;
        values.put(Metric.SLO_ATTAINMENT, ended == 0 ? Double.NaN : (double) good / ended);
        values.put(
                Metric.ERROR_RATE,
                measured.isEmpty() ? Double.NaN : (double) (measured.size() - successes.size()) / measured.size());
        return values;
    }

    private static double rate(long count, double windowSeconds) {
        return windowSeconds > 0 ? count / windowSeconds : Double.NaN;
    }

    private static LoadStatistics loadStatistics(
            Load profile,
            List<RequestRecord> records,
            List<RequestRecord> measured,
            long peakOutputChunksPerSecond,
            double share,
            SteadyState window) {
        long windowStart = Long.MAX_VALUE;
        long windowEnd = Long.MIN_VALUE;
        long firstDispatch = Long.MAX_VALUE;
        long lastDispatch = Long.MIN_VALUE;
        long dispatched = 0;
        for (RequestRecord record : measured) {
            windowStart = Math.min(windowStart, record.intendedNanos());
            windowEnd = Math.max(windowEnd, record.endNanos());
            if (record.dispatchedNanos() != ABSENT) {
                dispatched++;
                firstDispatch = Math.min(firstDispatch, record.dispatchedNanos());
                lastDispatch = Math.max(lastDispatch, record.dispatchedNanos());
            }
        }
        if (measured.isEmpty()) {
            windowStart = 0;
            windowEnd = 0;
        }
        double achieved = dispatched >= 2 && lastDispatch > firstDispatch
                ? (dispatched - 1) * 1e9 / (lastDispatch - firstDispatch)
                : Double.NaN;
        // A class is offered its share of the mix's rate.
        double offered = profile.arrivals() instanceof Arrivals.AtRate atRate ? atRate.rate() * share : Double.NaN;
        if (profile.arrivals() instanceof Arrivals.TraceTimes && records.size() >= 2) {
            // A replayed trace offers the mean rate of its intended start times.
            long first = records.stream()
                    .mapToLong(RequestRecord::intendedNanos)
                    .min()
                    .orElseThrow();
            long last = records.stream()
                    .mapToLong(RequestRecord::intendedNanos)
                    .max()
                    .orElseThrow();
            offered = last > first ? (records.size() - 1) * 1e9 / (last - first) : Double.NaN;
        }
        return new LoadStatistics(
                offered, achieved, windowStart, windowEnd, peakInFlight(measured), peakOutputChunksPerSecond, window);
    }

    /**
     * Sweeps over [dispatched, end) of every measured request that was sent; an end and a start at the same
     * instant do not overlap. Warm-up and cool-down requests are left out, as from every other statistic.
     */
    private static int peakInFlight(List<RequestRecord> measured) {
        long[] starts = measured.stream()
                .filter(record -> record.dispatchedNanos() != ABSENT)
                .mapToLong(RequestRecord::dispatchedNanos)
                .toArray();
        long[] ends = measured.stream()
                .filter(record -> record.dispatchedNanos() != ABSENT)
                .mapToLong(RequestRecord::endNanos)
                .toArray();
        return IntervalSweep.peak(starts, ends);
    }
}
