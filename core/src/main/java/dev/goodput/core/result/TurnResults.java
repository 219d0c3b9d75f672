package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.workload.SessionWorkload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.apiguardian.api.API;

/** A run of a {@link SessionWorkload} split by turn. */
@API(status = EXPERIMENTAL, since = "0.2")
public final class TurnResults {

    private TurnResults() {}

    /**
     * Splits a run of a session workload by turn: for turn 1, 2, ... a result computed from that turn's records
     * alone (pooled ICL and ITL are not split and are empty there). {@code workload} is the instance that ran, which
     * remembers the turn of every request it built.
     */
    public static Map<Integer, RunResult> split(RunResult result, SessionWorkload workload) {
        Map<Integer, List<RequestRecord>> byTurn = new TreeMap<>();
        for (RequestRecord record : result.records()) {
            byTurn.computeIfAbsent(workload.turnOf(record.index()), t -> new ArrayList<>())
                    .add(record);
        }
        Map<Integer, RunResult> results = new LinkedHashMap<>();
        byTurn.forEach((turn, records) -> results.put(
                turn,
                ResultCalculator.compute(
                        result.spec(),
                        result.environment(),
                        RunSnapshot.of(records, new Histogram(3), new Histogram(3)))));
        return results;
    }
}
