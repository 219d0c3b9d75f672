package dev.goodput.core.ab.internal;

import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A workload read from an offset: position {@code i} of a block is position {@code offset + i} of the run's
 * workload, so that pair {@code k} offers both arms the requests a single run would have sent as its {@code k}-th
 * block, and the pairs together cover as many different prompts as one long run.
 */
public record OffsetWorkload(WorkloadSpec workload, long offset) implements WorkloadSpec {

    /**
     * Returns {@code workload} read from {@code offset}; a workload whose type the engine looks at (a mix, a session
     * workload, a timed trace) is returned as it is, so that every pair offers the same requests.
     */
    public static WorkloadSpec of(WorkloadSpec workload, long offset) {
        if (offset == 0
                || workload instanceof dev.goodput.core.workload.WorkloadMix
                || workload instanceof dev.goodput.core.workload.SessionWorkload
                || workload instanceof dev.goodput.core.workload.TimedWorkload) {
            return workload;
        }
        return new OffsetWorkload(workload, offset);
    }

    @Override
    public RequestSpec request(long index) {
        return workload.request(offset + index);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> described = new LinkedHashMap<>(workload.describe());
        described.put("ab.offset", offset);
        return described;
    }
}
