package dev.goodput.core.internal.result;

import dev.goodput.core.Phase;
import dev.goodput.core.RequestRecord;
import dev.goodput.core.internal.client.FinishedRequest;
import dev.goodput.core.internal.client.SecretRedaction;
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
    private final PooledGaps gaps = new PooledGaps();
    private final Map<String, PooledGaps> classGaps = new TreeMap<>();
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
        this.redaction = redaction;
        this.classOf = classOf;
    }

    /** Takes one finished request; call once per request. */
    public void record(FinishedRequest finished) {
        RequestRecord record = redaction.redact(finished.record());
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
                gaps.add(finished);
                String workloadClass = classOf.apply(record.index());
                if (workloadClass != null) {
                    classGaps
                            .computeIfAbsent(workloadClass, c -> new PooledGaps())
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
        List<RequestRecord> copy;
        Histogram icl;
        Histogram itl;
        long ignoreEos;
        long shorter;
        long peakChunksPerSecond;
        Histogram pauses;
        Map<String, RunSnapshot.Gaps> gapsByClass = new TreeMap<>();
        synchronized (this) {
            classGaps.forEach(
                    (name, pooled) -> gapsByClass.put(name, new RunSnapshot.Gaps(pooled.icl(), pooled.itl())));
            pauses = clientPauses;
            copy = new ArrayList<>(records);
            icl = gaps.icl();
            itl = gaps.itl();
            ignoreEos = ignoreEosRequests;
            shorter = shorterThanAsked;
            peakChunksPerSecond = chunks.peakPerSecond();
        }
        // Sorted outside the lock, so that recording threads do not wait for it.
        return new RunSnapshot(copy, icl, itl, ignoreEos, shorter, peakChunksPerSecond, pauses, gapsByClass);
    }
}
