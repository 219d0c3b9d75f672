package dev.goodput.core.result.internal;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestAttempt;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.stats.internal.SampleBlocks;
import dev.goodput.core.transport.internal.FinishedRequest;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.HdrHistogram.Histogram;

/**
 * The one hand-off from measurement to result, in the manner of HdrHistogram's {@code Recorder}: it takes each
 * finished request of a run once and hands out immutable {@link RunSnapshot}s of everything taken so far.
 *
 * <p>Concurrency contract: {@link #record} may be called from any number of threads at once, and
 * {@link #snapshot} from any thread at any time, also while others record. Each call holds this recorder's lock
 * briefly and never calls out under it, so a caller may hold its own lock. A snapshot reflects every
 * {@code record} call that returned before it began, and never part of one. Recording the same request (by its
 * index) twice is a bug in the caller and throws.
 *
 * <p>What it takes is redacted as it is taken: the API key never reaches a record outside the request. Of
 * measured successful requests it also pools the gaps into the ICL and ITL histograms, counts their content events
 * per millisecond for the peak output rate ({@link ChunkTimeline}), and counts those sent with {@code ignore_eos}
 * that came back shorter than asked.
 */
public final class RunRecorder {

    private final SecretRedaction redaction;
    private final LongFunction<String> classOf;

    // Guarded by this.
    private final List<RequestRecord> records = new ArrayList<>();
    private final BitSet recordedIndices = new BitSet();
    private final long[] segmentEnds;
    private final List<PooledGaps> gaps = new ArrayList<>();
    private final Map<String, List<PooledGaps>> classGaps = new TreeMap<>();
    private long firstMeasured = -1;
    private final ChunkTimeline chunks = new ChunkTimeline();
    private long ignoreEosRequests;
    private long shorterThanAsked;
    private Histogram clientPauses;
    private final ServedModels servedModels = new ServedModels();

    /** Returns the redaction this recorder applies, for the client's error bodies of the same run. */
    public SecretRedaction redaction() {
        return redaction;
    }

    /** Returns a recorder that removes the key {@code redaction} knows from every record it takes. */
    public RunRecorder(SecretRedaction redaction) {
        this(redaction, index -> null);
    }

    /**
     * Returns a recorder that removes the key {@code redaction} knows from every record it takes, and also pools
     * the gaps of each workload class apart, the class of a request being {@code classOf} of its index ({@code
     * null} for none).
     */
    public RunRecorder(SecretRedaction redaction, LongFunction<String> classOf) {
        this(redaction, classOf, new long[0]);
    }

    /**
     * Returns a recorder as {@link #RunRecorder(SecretRedaction, LongFunction)} that also pools the gaps of a run
     * that looks at its objectives in segments: segment {@code k} holds the measured requests from the {@code
     * segmentEnds[k - 1]}-th to before the {@code segmentEnds[k]}-th (counted from the first measured request, which
     * the driver names with {@link #firstMeasured}), and the last one every measured request after; so that a look,
     * and the result of a run that stopped at one, pool exactly the requests they judge.
     */
    public RunRecorder(SecretRedaction redaction, LongFunction<String> classOf, long[] segmentEnds) {
        this.redaction = redaction;
        this.classOf = classOf;
        this.segmentEnds = segmentEnds.clone();
        for (int s = 0; s <= segmentEnds.length; s++) {
            gaps.add(new PooledGaps());
        }
    }

    /** Names the index of the run's first measured request; the driver calls it as it creates that request. */
    public synchronized void firstMeasured(long index) {
        if (firstMeasured < 0) {
            firstMeasured = index;
        }
    }

    /** Returns the segment of the measured request at {@code index}. Under the lock. */
    private int segmentOf(long index) {
        long position = index - Math.max(0, firstMeasured);
        int segment = 0;
        while (segment < segmentEnds.length && position >= segmentEnds[segment]) {
            segment++;
        }
        return segment;
    }

    /** Takes one finished request; call once per request. */
    public void record(FinishedRequest finished) {
        RequestRecord record = redacted(finished.record());
        int index = Math.toIntExact(record.index());
        boolean counted = record.phase() == Phase.MEASURED && record.isSuccess();
        synchronized (this) {
            if (recordedIndices.get(index)) {
                throw new IllegalStateException("request " + index + " was recorded twice");
            }
            recordedIndices.set(index);
            records.add(record);
            servedModels.add(finished.servedModel());
            if (counted) {
                int segment = segmentOf(index);
                gaps.get(segment).add(finished);
                String trafficClass = classOf.apply(record.index());
                if (trafficClass != null) {
                    classGaps
                            .computeIfAbsent(trafficClass, c -> newSegments())
                            .get(segment)
                            .add(finished);
                }
                chunks.add(finished);
                if (finished.ignoreEos()) {
                    ignoreEosRequests++;
                    if (record.outputTokens() < finished.maxTokens()) {
                        shorterThanAsked++;
                    }
                }
            }
        }
    }

    /**
     * Returns what a run asking for {@code askedModel} should note about the models its streams named: how many
     * named another (llama-server serves whatever it has loaded, whatever the request asks for); empty when every
     * stream that named a model named that one.
     */
    public synchronized Optional<String> servedModelNote(String askedModel) {
        return servedModels.note(askedModel);
    }

    /** Takes how late the client's own threads woke during the run ({@code PauseMeter}), once it has stopped. */
    public synchronized void clientPauses(Histogram pauses) {
        clientPauses = pauses.copy();
    }

    /** Returns how many requests were recorded so far. */
    public synchronized int recorded() {
        return records.size();
    }

    /**
     * Returns a copy of the content events counted per millisecond, which a shard writes out so that the merge can
     * compute the peak output rate of all shards together.
     */
    public synchronized ChunkTimeline chunkTimeline() {
        return chunks.copy();
    }

    /** Returns an immutable snapshot of everything recorded so far. */
    public RunSnapshot snapshot() {
        return snapshot(Long.MAX_VALUE, false);
    }

    /**
     * Returns an immutable snapshot of the requests before {@code endIndex}, with the gaps of the segments they fill
     * ({@code endIndex} ends a segment, or is {@link Long#MAX_VALUE} for every request): what a look of a sequential
     * run judges. With {@code keepLater}, the measured requests from {@code endIndex} on stay in the snapshot as
     * cool-down, as a run that stopped at that look counts them; without it they are left out.
     */
    public RunSnapshot snapshot(long endIndex, boolean keepLater) {
        List<RequestRecord> copy = new ArrayList<>();
        Histogram icl = new Histogram(PooledGaps.SIGNIFICANT_DIGITS);
        Histogram itl = new Histogram(PooledGaps.SIGNIFICANT_DIGITS);
        SampleBlocks iclBlocks;
        SampleBlocks itlBlocks;
        long ignoreEos;
        long shorter;
        long peakChunksPerSecond;
        Histogram pauses;
        Map<String, RunSnapshot.Gaps> gapsByClass = new TreeMap<>();
        synchronized (this) {
            int segments = endIndex == Long.MAX_VALUE ? gaps.size() : segmentOf(endIndex);
            List<PooledGaps> judged = gaps.subList(0, Math.max(1, segments));
            classGaps.forEach((name, pooled) -> gapsByClass.put(name, pool(pooled.subList(0, judged.size()))));
            RunSnapshot.Gaps run = pool(judged);
            icl = run.icl();
            itl = run.itl();
            iclBlocks = run.iclBlocks();
            itlBlocks = run.itlBlocks();
            for (RequestRecord record : records) {
                if (record.index() < endIndex) {
                    copy.add(record);
                } else if (keepLater) {
                    copy.add(record.phase() == Phase.MEASURED ? record.withPhase(Phase.COOLDOWN) : record);
                }
            }
            pauses = clientPauses;
            ignoreEos = ignoreEosRequests;
            shorter = shorterThanAsked;
            peakChunksPerSecond = chunks.peakPerSecond();
        }
        // Sorted outside the lock, so that recording threads do not wait for it.
        return new RunSnapshot(
                copy, icl, itl, ignoreEos, shorter, peakChunksPerSecond, pauses, gapsByClass, iclBlocks, itlBlocks);
    }

    private List<PooledGaps> newSegments() {
        List<PooledGaps> segments = new ArrayList<>();
        for (int s = 0; s <= segmentEnds.length; s++) {
            segments.add(new PooledGaps());
        }
        return segments;
    }

    private static RunSnapshot.Gaps pool(List<PooledGaps> segments) {
        if (segments.size() == 1) {
            PooledGaps only = segments.get(0);
            return new RunSnapshot.Gaps(only.icl(), only.itl(), only.iclBlocks(), only.itlBlocks());
        }
        Histogram icl = new Histogram(PooledGaps.SIGNIFICANT_DIGITS);
        Histogram itl = new Histogram(PooledGaps.SIGNIFICANT_DIGITS);
        List<SampleBlocks> iclBlocks = new ArrayList<>();
        List<SampleBlocks> itlBlocks = new ArrayList<>();
        for (PooledGaps segment : segments) {
            segment.addTo(icl, itl);
            iclBlocks.add(segment.iclBlocks());
            itlBlocks.add(segment.itlBlocks());
        }
        return new RunSnapshot.Gaps(icl, itl, GapBlocks.concat(iclBlocks), GapBlocks.concat(itlBlocks));
    }

    /** Returns the record with the key removed from its reason and from the reasons of its earlier attempts. */
    private RequestRecord redacted(RequestRecord r) {
        String detail = redaction.redact(r.errorDetail());
        boolean changed = detail != null && !detail.equals(r.errorDetail());
        for (RequestAttempt attempt : r.retriedAttempts()) {
            changed |= !redaction.redact(attempt.reason()).equals(attempt.reason());
        }
        if (!changed) {
            return r;
        }
        return r.withReasons(
                detail,
                r.retriedAttempts().stream()
                        .map(a -> new RequestAttempt(
                                a.number(),
                                a.dispatchedNanos(),
                                a.endNanos(),
                                a.httpStatus(),
                                redaction.redact(a.reason()),
                                a.waitNanos()))
                        .toList());
    }
}
