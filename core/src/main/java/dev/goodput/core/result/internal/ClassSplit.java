package dev.goodput.core.result.internal;

import dev.goodput.core.RunSpec;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.SteadyState;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.workload.TrafficClassSpec;
import dev.goodput.core.workload.WorkloadMix;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;

/**
 * A run's workload classes ({@link WorkloadMix}): which class each request belongs to, which request-level
 * bounds judge it, and each class's own result computed from its requests alone, exactly as a run's.
 */
public final class ClassSplit {

    private ClassSplit() {}

    /** Returns the class name of each request index of a run, or {@code null} for every index without classes. */
    public static LongFunction<String> classifier(RunSpec spec) {
        if (spec.workload() instanceof WorkloadMix mix) {
            return index -> mix.classOf(index).name();
        }
        return index -> null;
    }

    /**
     * Returns whether a successful request met every request-level bound that judges it: the whole run's and its
     * own class's ({@link ResultCalculator#isGood(RequestRecord, List)}).
     */
    public static boolean isGood(RequestRecord record, RunSpec spec) {
        String requestClass = classifier(spec).apply(record.index());
        List<SloSpec> criteria = spec.requestCriteria().stream()
                .filter(slo -> slo.appliesTo(requestClass))
                .toList();
        return ResultCalculator.isGood(record, criteria);
    }

    /** Returns the share of the requests that a class gets, or 1 for a whole run ({@code null}). */
    static double share(RunSpec spec, String onlyClass) {
        if (onlyClass == null || !(spec.workload() instanceof WorkloadMix mix)) {
            return 1.0;
        }
        return mix.share(mix.trafficClass(onlyClass).orElseThrow());
    }

    /**
     * Returns each class's result, in the mix's order, each over the run's steady-state {@code window}; empty when
     * the workload has no classes.
     */
    static Map<String, RunResult> results(
            RunSpec spec,
            RunEnvironment environment,
            RunSnapshot snapshot,
            SteadyState window,
            double confidence,
            List<String> notes) {
        if (!(spec.workload() instanceof WorkloadMix mix)) {
            return Map.of();
        }
        Map<String, List<RequestRecord>> byClass = new LinkedHashMap<>();
        for (TrafficClassSpec trafficClass : mix.classes()) {
            byClass.put(trafficClass.name(), new ArrayList<>());
        }
        for (RequestRecord record : snapshot.records()) {
            byClass.get(mix.classOf(record.index()).name()).add(record);
        }
        Map<String, RunResult> results = new LinkedHashMap<>();
        byClass.forEach((name, records) -> {
            RunSnapshot.Gaps gaps = snapshot.classGaps().get(name);
            Histogram icl = gaps == null ? new Histogram(3) : gaps.icl();
            Histogram itl = gaps == null ? new Histogram(3) : gaps.itl();
            RunSnapshot part = new RunSnapshot(
                    records,
                    icl,
                    itl,
                    RunSnapshot.NOT_TRACKED,
                    RunSnapshot.NOT_TRACKED,
                    RunSnapshot.NOT_TRACKED,
                    snapshot.clientPauses(),
                    Map.of(),
                    gaps == null ? null : gaps.iclBlocks(),
                    gaps == null ? null : gaps.itlBlocks());
            results.put(
                    name, ResultCalculator.compute(spec, environment, part, name, Map.of(), window, confidence, notes));
        });
        return results;
    }

    /** Returns the verdict a class's result holds on one of its objectives. */
    static SloVerdict verdictOf(SloSpec slo, Map<String, RunResult> classes) {
        RunResult result = classes.get(slo.trafficClass());
        if (result == null) {
            throw new IllegalStateException("no result for workload class " + slo.trafficClass());
        }
        return result.verdicts().stream()
                .filter(verdict -> verdict.objective().equals(slo))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no verdict on " + slo));
    }
}
