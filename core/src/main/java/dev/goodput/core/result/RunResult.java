package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.servermetrics.ServerMetricsResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.stats.Summary;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * The result of one run: every request's record, the accounting, the metrics as defined in
 * {@code docs/metrics.md}, and a verdict on every objective. Immutable.
 *
 * @param spec what was run
 * @param environment where and when
 * @param records one record per created request, ordered by schedule position
 * @param accounting where every request went
 * @param load offered and achieved load, and the measurement window
 * @param summaries summaries of the per-request and pooled metrics over the measured successful requests
 * @param values the run-level metrics ({@link Metric.Kind#RUN}); NaN where undefined (no window)
 * @param verdicts one verdict per objective, in the order given
 * @param goodRequests measured requests that succeeded and met every request-level objective
 * @param tokens token totals and their sources
 * @param clientHealth whether the client kept up with its schedule
 * @param failures why the requests that did not succeed did not, by outcome and reason, warm-up and cool-down
 *     included
 * @param serverMetrics what the server's own metrics said ({@code docs/server-metrics.md});
 *     {@link ServerMetricsResult#NONE} when nothing was scraped
 * @param classes with a {@link dev.goodput.core.workload.WorkloadMix}, each class's own result, in the mix's
 *     order: its requests alone, its metrics, goodput and the verdicts on its objectives (which {@link #verdicts}
 *     also holds); empty without classes
 * @param notes what the run says besides its numbers: each percentile objective its load was too small to meet
 *     (when the sample-size check only warned) and each whose sample size could not be known before the run
 *     ({@link RunSpec#notes()}), then what the run itself found worth saying (the preflight waited for a server
 *     still loading its model, streams named another model than the one asked for, the run was stopped early);
 *     empty when there is nothing to say
 * @param stopReason why the run stopped before its schedule's end ({@link Goodput.RunBuilder#stopWhenServerGone}),
 *     or {@code null} when it ran to its end; the requests it created are all accounted for all the same
 * @param runLength how long the run lasted and why it stopped; {@link RunLength#FIXED} for a run of fixed length
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunResult(
        RunSpec spec,
        RunEnvironment environment,
        List<RequestRecord> records,
        Accounting accounting,
        LoadStatistics load,
        Map<Metric, Summary> summaries,
        Map<Metric, Double> values,
        List<SloVerdict> verdicts,
        long goodRequests,
        TokenStatistics tokens,
        ClientHealth clientHealth,
        FailureBreakdown failures,
        ServerMetricsResult serverMetrics,
        Map<String, RunResult> classes,
        List<String> notes,
        String stopReason,
        RunLength runLength) {

    public RunResult {
        records = List.copyOf(records);
        summaries = Collections.unmodifiableMap(new EnumMap<>(summaries));
        values = Collections.unmodifiableMap(new EnumMap<>(values));
        verdicts = List.copyOf(verdicts);
        Objects.requireNonNull(failures, "failures");
        Objects.requireNonNull(serverMetrics, "serverMetrics");
        classes = classes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(classes));
        notes = List.copyOf(notes);
        runLength = runLength == null ? RunLength.FIXED : runLength;
    }

    /** Returns this result with how long its run lasted and why it stopped. */
    public RunResult withRunLength(RunLength value) {
        return new RunResult(
                spec,
                environment,
                records,
                accounting,
                load,
                summaries,
                values,
                verdicts,
                goodRequests,
                tokens,
                clientHealth,
                failures,
                serverMetrics,
                classes,
                notes,
                stopReason,
                value);
    }

    /**
     * Returns this result with a server view, the run-level values it yields and the verdicts on them (the
     * objectives keep their order).
     */
    public RunResult withServerMetrics(
            ServerMetricsResult view, Map<Metric, Double> moreValues, List<SloVerdict> newVerdicts) {
        Map<Metric, Double> merged = new EnumMap<>(Metric.class);
        merged.putAll(values);
        merged.putAll(moreValues);
        return new RunResult(
                spec,
                environment,
                records,
                accounting,
                load,
                summaries,
                merged,
                newVerdicts,
                goodRequests,
                tokens,
                clientHealth,
                failures,
                view,
                classes,
                notes,
                stopReason,
                runLength);
    }

    /** Returns this result with one more note at the end of {@link #notes()}. */
    public RunResult withNote(String note) {
        List<String> more = new java.util.ArrayList<>(notes);
        more.add(Objects.requireNonNull(note, "note"));
        return new RunResult(
                spec,
                environment,
                records,
                accounting,
                load,
                summaries,
                values,
                verdicts,
                goodRequests,
                tokens,
                clientHealth,
                failures,
                serverMetrics,
                classes,
                more,
                stopReason,
                runLength);
    }

    /**
     * Returns this result of a run that was stopped before its schedule's end, for {@code reason}; the reason, with
     * how many requests were created, also becomes the last note.
     */
    public RunResult withStop(String reason) {
        Objects.requireNonNull(reason, "reason");
        OptionalLong planned = spec.load().limits().requests();
        String created = accounting.scheduled() + " requests created, each counted in its outcome"
                + (planned.isPresent() && planned.getAsLong() > accounting.scheduled()
                        ? "; the other " + (planned.getAsLong() - accounting.scheduled()) + " of the "
                                + planned.getAsLong() + " planned were never created"
                        : "");
        return new RunResult(
                        spec,
                        environment,
                        records,
                        accounting,
                        load,
                        summaries,
                        values,
                        verdicts,
                        goodRequests,
                        tokens,
                        clientHealth,
                        failures,
                        serverMetrics,
                        classes,
                        notes,
                        reason,
                        runLength)
                .withNote("the run was stopped early: " + reason + "; " + created);
    }

    /** Returns whether the run stopped before its schedule's end ({@link #stopReason()}). */
    public boolean stoppedEarly() {
        return stopReason != null;
    }

    /**
     * Returns the result of one workload class.
     *
     * @throws IllegalArgumentException when the run has no class of that name
     */
    public RunResult forClass(String name) {
        RunResult result = classes.get(name);
        if (result == null) {
            throw new IllegalArgumentException(
                    "workload class " + name + " is not a class of this run; its classes are " + classes.keySet());
        }
        return result;
    }

    /**
     * Returns the summary of a per-request or pooled metric.
     *
     * @throws IllegalArgumentException for a run-level metric, which has a single {@link #value(Metric)}
     */
    public Summary summary(Metric metric) {
        Summary summary = summaries.get(metric);
        if (summary == null) {
            throw new IllegalArgumentException(metric + " is a run-level value; use value(" + metric + ")");
        }
        return summary;
    }

    /**
     * Returns a run-level metric such as goodput or request throughput; NaN for a server-side metric the run did
     * not measure ({@link Metric#isServerSide()}).
     *
     * @throws IllegalArgumentException for a per-request or pooled metric, which has a {@link #summary(Metric)}
     */
    public double value(Metric metric) {
        Double value = values.get(metric);
        if (value == null && metric.isServerSide()) {
            return Double.NaN;
        }
        if (value == null) {
            throw new IllegalArgumentException(
                    metric + " has one sample per request or gap; use summary(" + metric + ")");
        }
        return value;
    }

    /** Returns goodput in requests/s. */
    public double goodput() {
        return value(Metric.GOODPUT);
    }

    /** Returns whether every objective was met (an inconclusive verdict is not met). */
    public boolean allMet() {
        return verdicts.stream().allMatch(SloVerdict::isMet);
    }

    /** Returns the verdicts that are not {@link Verdict#MET}. */
    public List<SloVerdict> unmet() {
        return verdicts.stream().filter(verdict -> !verdict.isMet()).toList();
    }

    /**
     * Returns how many sends of the run's requests went out again because their pooled connection was closed before
     * any response ({@link RequestRecord#connectionRetries()}, summed).
     */
    public long connectionRetries() {
        return records.stream().mapToLong(RequestRecord::connectionRetries).sum();
    }
}
