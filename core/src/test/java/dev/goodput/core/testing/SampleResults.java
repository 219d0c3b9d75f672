package dev.goodput.core.testing;

import static dev.goodput.core.record.RequestRecord.ABSENT;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.transport.internal.FinishedRequest;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Instant;
import java.util.List;
import org.HdrHistogram.Histogram;

/** Hand-made records whose metrics are computed by hand in {@code ResultCalculatorTest}. */
public final class SampleResults {

    private SampleResults() {}

    private static final long MS = 1_000_000;

    public static RequestRecord success(
            long index, Phase phase, long intended, long dispatched, long first, long last, long end, int out) {
        return new RequestRecord(
                index,
                phase,
                intended * MS,
                dispatched * MS,
                dispatched * MS + MS,
                first * MS,
                last * MS,
                end * MS,
                false,
                200,
                out,
                out,
                TokenCountSource.USAGE,
                -1,
                10,
                8,
                out >= 2 ? (last - first) * MS : ABSENT,
                "length",
                Outcome.SUCCESS,
                null,
                List.of(),
                0,
                null,
                StreamPhases.NONE);
    }

    /**
     * A successful request as the client hands it over, with its content events: the first at {@code first}, each
     * later one a gap after the one before carrying the given tokens (instants and gaps in ms, sent as intended).
     */
    public static FinishedRequest streamed(
            long index, Phase phase, long dispatched, long first, long[] gapsMillis, int[] tokens) {
        long last = first;
        long[] gapNanos = new long[gapsMillis.length];
        int out = 1;
        for (int i = 0; i < gapsMillis.length; i++) {
            last += gapsMillis[i];
            gapNanos[i] = gapsMillis[i] * MS;
            out += tokens[i];
        }
        RequestRecord record = success(index, phase, dispatched, dispatched, first, last, last, out);
        return new FinishedRequest(record, false, 64, gapNanos, tokens, gapsMillis.length);
    }

    private static RequestRecord failure(long index, long intended, long end) {
        return failure(index, Phase.MEASURED, intended, end, Outcome.FAILED, 500, "HTTP 500");
    }

    /** A request that did not succeed, with its outcome, HTTP status (0 for none) and reason. */
    public static RequestRecord failure(
            long index, Phase phase, long intended, long end, Outcome outcome, int status, String reason) {
        return new RequestRecord(
                index,
                phase,
                intended * MS,
                intended * MS,
                ABSENT,
                ABSENT,
                ABSENT,
                end * MS,
                false,
                status,
                0,
                0,
                TokenCountSource.NONE,
                -1,
                -1,
                8,
                ABSENT,
                null,
                outcome,
                reason,
                List.of(),
                0,
                null,
                StreamPhases.NONE);
    }

    public static final List<RequestRecord> RECORDS = List.of(
            success(0, Phase.WARMUP, -500, -500, 500, 600, 600, 3), // excluded
            success(1, Phase.MEASURED, 0, 0, 100, 300, 300, 5), // TTFT 100, E2EL 300, TPOT 50
            success(2, Phase.MEASURED, 100, 110, 250, 450, 460, 3), // TTFT 150 (140 from send), E2EL 350, TPOT 100
            success(3, Phase.MEASURED, 200, 200, 400, 400, 400, 1), // TTFT 200, E2EL 200, no TPOT
            success(4, Phase.MEASURED, 300, 300, 350, 750, 760, 9), // TTFT 50, E2EL 450, TPOT 50
            failure(5, 400, 1000), // inside the window, ends it at 1000 ms
            success(6, Phase.COOLDOWN, 1100, 1100, 1200, 1300, 1300, 3)); // excluded

    /** Computes the result of the sample records with the given objectives. */
    public static RunResult compute(List<SloSpec> objectives) {
        return compute(RECORDS, objectives);
    }

    /** Computes the result of the given records with the given objectives, the sample's pooled gaps and spec. */
    public static RunResult compute(List<RequestRecord> records, List<SloSpec> objectives) {
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(WorkloadSpec.synthetic().build())
                .load(Load.constantRate(5).requests(7))
                .objectives(objectives)
                .build();
        Histogram icl = new Histogram(3);
        for (long gap : new long[] {50, 50, 50, 50, 200, 400}) {
            icl.recordValue(gap * MS);
        }
        Histogram itl = new Histogram(3);
        itl.recordValueWithCount(50 * MS, 12);
        return ResultCalculator.compute(spec, RunEnvironment.current(Instant.EPOCH), RunSnapshot.of(records, icl, itl));
    }
}
