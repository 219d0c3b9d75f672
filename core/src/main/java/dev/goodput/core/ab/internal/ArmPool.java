package dev.goodput.core.ab.internal;

import dev.goodput.core.RunSpec;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Pools one arm's blocks into one result, as if the arm had run its blocks back to back: every record is moved in
 * time to close the gaps the other arm's blocks left (so that rates count the arm's own time only) and numbered on
 * from the previous block's, and the pooled gaps are summed. The result is computed by {@link ResultCalculator}
 * exactly as a single run's is; its objectives' verdicts are the arm's.
 */
final class ArmPool {

    private ArmPool() {}

    static RunResult result(RunSpec spec, RunEnvironment environment, List<BlockRun> blocks) {
        List<RequestRecord> records = new ArrayList<>();
        Histogram icl = null;
        Histogram itl = null;
        Histogram pauses = null;
        long ignoreEos = 0;
        long shorter = 0;
        long peak = 0;
        Map<String, Histogram[]> classGaps = new HashMap<>();
        long cursor = 0;
        long nextIndex = 0;
        for (BlockRun block : blocks) {
            RunSnapshot snapshot = block.snapshot();
            long shift = cursor - block.startNanos();
            long indexBase = nextIndex;
            for (RequestRecord record : snapshot.records()) {
                records.add(shifted(record, shift, indexBase + record.index()));
                nextIndex = Math.max(nextIndex, indexBase + record.index() + 1);
            }
            cursor += block.endNanos() - block.startNanos();
            icl = sum(icl, snapshot.icl());
            itl = sum(itl, snapshot.itl());
            pauses = sum(pauses, snapshot.clientPauses());
            ignoreEos = RunSnapshot.sumTracked(ignoreEos, snapshot.ignoreEosRequests());
            shorter = RunSnapshot.sumTracked(shorter, snapshot.shorterThanAsked());
            peak = snapshot.peakOutputChunksPerSecond() == RunSnapshot.NOT_TRACKED || peak == RunSnapshot.NOT_TRACKED
                    ? RunSnapshot.NOT_TRACKED
                    : Math.max(peak, snapshot.peakOutputChunksPerSecond());
            for (Map.Entry<String, RunSnapshot.Gaps> entry :
                    snapshot.classGaps().entrySet()) {
                Histogram[] sums = classGaps.computeIfAbsent(entry.getKey(), name -> new Histogram[2]);
                sums[0] = sum(sums[0], entry.getValue().icl());
                sums[1] = sum(sums[1], entry.getValue().itl());
            }
        }
        Map<String, RunSnapshot.Gaps> gaps = new HashMap<>();
        classGaps.forEach((name, sums) -> gaps.put(name, new RunSnapshot.Gaps(sums[0], sums[1])));
        RunSnapshot pooled = new RunSnapshot(records, icl, itl, ignoreEos, shorter, peak, pauses, gaps);
        return ResultCalculator.compute(spec, environment, pooled);
    }

    /** Adds a copy this pool owns to {@code sum}, keeping the first one's configuration, as a shard merge does. */
    private static Histogram sum(Histogram sum, Histogram next) {
        if (next == null) {
            return sum;
        }
        if (sum == null) {
            return next.copy();
        }
        sum.add(next);
        return sum;
    }

    private static long at(long nanos, long shift) {
        return nanos == RequestRecord.ABSENT ? nanos : nanos + shift;
    }

    private static RequestRecord shifted(RequestRecord r, long shift, long index) {
        return new RequestRecord(
                index,
                r.phase(),
                at(r.intendedNanos(), shift),
                at(r.dispatchedNanos(), shift),
                at(r.headersNanos(), shift),
                at(r.firstTokenNanos(), shift),
                at(r.lastTokenNanos(), shift),
                at(r.endNanos(), shift),
                r.heldByConcurrencyCap(),
                r.httpStatus(),
                r.contentEvents(),
                r.outputTokens(),
                r.outputTokenSource(),
                r.clientOutputTokens(),
                r.serverPromptTokens(),
                r.clientPromptTokens(),
                r.maxStallNanos(),
                r.finishReason(),
                r.outcome(),
                r.errorDetail(),
                r.retriedAttempts(),
                r.connectionRetries(),
                r.serverTimings(),
                r.streamPhases());
    }
}
