package dev.goodput.core.result.internal;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.TrafficClassSpec;
import dev.goodput.core.workload.WorkloadMix;
import dev.goodput.core.workload.WorkloadSpec;
import java.util.List;

/**
 * Checks objectives on workload classes against the workload, for a spec's constructor; apart from {@link
 * ClassSplit} so that the spec does not depend on the result calculator.
 */
public final class ClassObjectives {

    private ClassObjectives() {}

    /**
     * Checks that every objective naming a class names a class of the workload.
     *
     * @throws InvalidSettingException naming the objective and the class
     */
    public static void check(WorkloadSpec workload, List<SloSpec> objectives) {
        for (SloSpec slo : objectives) {
            String name = slo.trafficClass();
            if (name == null) {
                continue;
            }
            if (!(workload instanceof WorkloadMix mix)) {
                throw InvalidSettingException.conflict(
                        "objective " + slo + " judges the workload class " + name + ", but the workload has no"
                                + " classes (use a WorkloadMix): "
                                + workload.describe().get("type"),
                        "objectives",
                        "workload");
            }
            if (mix.trafficClass(name).isEmpty()) {
                throw InvalidSettingException.of(
                        "trafficClass",
                        name,
                        "is not a class of the workload mix (objective " + slo + "); its classes are "
                                + mix.classes().stream()
                                        .map(TrafficClassSpec::name)
                                        .toList());
            }
        }
    }
}
