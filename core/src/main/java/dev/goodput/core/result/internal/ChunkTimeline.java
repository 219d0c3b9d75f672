package dev.goodput.core.result.internal;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.transport.internal.FinishedRequest;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The content events of measured successful requests counted per millisecond of the run's clock, for vLLM's
 * peak output rate ({@code max_output_tokens_per_s}): the most content events in one second, seconds counted
 * from the earliest send of a successful request. Like vLLM it counts one per event, however many tokens the
 * event carried.
 *
 * <p>Why per millisecond: the first second starts at the earliest successful send, which is known only when the
 * run has ended (a request sent first may finish last), so events cannot be put into their second as they
 * arrive; keeping every event's instant would cost 8 bytes per token for the whole run. Counting per millisecond
 * costs 4 KB per second that carried output, and puts the second boundaries on whole milliseconds: the count is
 * exact for instants truncated to the millisecond, and an event less than 1 ms from a boundary may land one
 * second away from where vLLM's float seconds would put it. Not thread-safe: the {@link RunRecorder} that holds
 * it guards it.
 *
 * <p>Timelines of shards of one run, on one time axis, add up exactly ({@link #add(ChunkTimeline)}): the counts
 * per millisecond add, and the earliest send is the earliest of theirs.
 */
public final class ChunkTimeline {

    private static final long NANOS_PER_MILLI = 1_000_000;
    private static final int MILLIS_PER_SECOND = 1000;

    /** Event counts per millisecond, in pages of one second keyed by {@code floor(millisecond / 1000)}. */
    private final TreeMap<Long, int[]> pages = new TreeMap<>();

    private long earliestSendNanos = Long.MAX_VALUE;

    /** The page {@link #page} returned last, and its key. */
    private int[] lastPage;

    private long lastPageKey;

    /** Returns an empty timeline. */
    public ChunkTimeline() {}

    /**
     * Returns a timeline with the given counts, as {@link #counts()} and {@link #earliestSendNanos()} gave them.
     *
     * @param earliestSendNanos the earliest send, or {@link Long#MAX_VALUE} for none
     * @param countsByMillisecond content events per millisecond of the run's clock; zero counts may be left out
     */
    public ChunkTimeline(long earliestSendNanos, Map<Long, Integer> countsByMillisecond) {
        this.earliestSendNanos = earliestSendNanos;
        countsByMillisecond.forEach((milli, count) -> {
            if (count < 0) {
                throw new IllegalArgumentException("a negative count " + count + " at millisecond " + milli);
            }
            page(milli)[(int) Math.floorMod(milli, MILLIS_PER_SECOND)] += count;
        });
    }

    /** Returns a copy of this timeline. */
    public ChunkTimeline copy() {
        ChunkTimeline copy = new ChunkTimeline();
        copy.add(this);
        return copy;
    }

    /** Adds another timeline of the same run's clock (another shard's) to this one. */
    public void add(ChunkTimeline other) {
        earliestSendNanos = Math.min(earliestSendNanos, other.earliestSendNanos);
        other.pages.forEach((key, counts) -> {
            int[] page = pages.computeIfAbsent(key, k -> new int[MILLIS_PER_SECOND]);
            for (int i = 0; i < MILLIS_PER_SECOND; i++) {
                page[i] += counts[i];
            }
        });
    }

    /** Returns the earliest send of the requests added, or {@link Long#MAX_VALUE} when none was. */
    public long earliestSendNanos() {
        return earliestSendNanos;
    }

    /** Returns the non-zero counts of content events by millisecond of the run's clock, in time order. */
    public SortedMap<Long, Integer> counts() {
        SortedMap<Long, Integer> counts = new TreeMap<>();
        pages.forEach((key, page) -> {
            for (int i = 0; i < MILLIS_PER_SECOND; i++) {
                if (page[i] != 0) {
                    counts.put(key * MILLIS_PER_SECOND + i, page[i]);
                }
            }
        });
        return counts;
    }

    private int[] page(long milli) {
        long key = Math.floorDiv(milli, MILLIS_PER_SECOND);
        if (lastPage == null || key != lastPageKey) {
            // A request's events fall in one page or two: no boxed key and tree walk per event.
            lastPage = pages.computeIfAbsent(key, k -> new int[MILLIS_PER_SECOND]);
            lastPageKey = key;
        }
        return lastPage;
    }

    /**
     * Adds the content events of a measured successful request: the first at its first token, each later one a
     * gap after the one before.
     */
    void add(FinishedRequest finished) {
        RequestRecord record = finished.record();
        long first = record.firstTokenNanos();
        if (record.dispatchedNanos() != RequestRecord.ABSENT) {
            earliestSendNanos = Math.min(earliestSendNanos, record.dispatchedNanos());
        }
        if (first == RequestRecord.ABSENT) {
            return;
        }
        count(first);
        long[] instant = {first};
        finished.forEachGap((gapNanos, tokens) -> {
            instant[0] += gapNanos;
            count(instant[0]);
        });
    }

    private void count(long nanos) {
        long milli = Math.floorDiv(nanos, NANOS_PER_MILLI);
        page(milli)[(int) Math.floorMod(milli, MILLIS_PER_SECOND)]++;
    }

    /**
     * Returns the most content events in one second, the seconds counted from the earliest send of the requests
     * added, or 0 when none was added (as vLLM reports a run without successes).
     */
    public long peakPerSecond() {
        if (earliestSendNanos == Long.MAX_VALUE) {
            return 0;
        }
        long originMilli = Math.floorDiv(earliestSendNanos, NANOS_PER_MILLI);
        long second = Long.MIN_VALUE;
        long inSecond = 0;
        long peak = 0;
        // Pages iterate in time order, so the seconds come in order and one running sum suffices.
        for (Map.Entry<Long, int[]> page : pages.entrySet()) {
            long pageMilli = page.getKey() * MILLIS_PER_SECOND;
            int[] counts = page.getValue();
            for (int i = 0; i < MILLIS_PER_SECOND; i++) {
                if (counts[i] == 0) {
                    continue;
                }
                long secondOfEvent = Math.floorDiv(pageMilli + i - originMilli, MILLIS_PER_SECOND);
                if (secondOfEvent != second) {
                    second = secondOfEvent;
                    inSecond = 0;
                }
                inSecond += counts[i];
                peak = Math.max(peak, inSecond);
            }
        }
        return peak;
    }
}
