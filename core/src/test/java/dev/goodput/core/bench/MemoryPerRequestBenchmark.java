package dev.goodput.core.bench;

import dev.goodput.core.RequestRecord;
import dev.goodput.core.RequestSpec;
import dev.goodput.core.internal.client.StreamAttempt;
import dev.goodput.core.internal.result.PooledGaps;
import dev.goodput.core.testing.DirectRequests;
import dev.goodput.core.testing.SseText;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Measures the heap a run holds per request: per request in flight (its parser, gap arrays and state, halfway
 * through a 256-token stream) and per completed request (its {@link RequestRecord}, kept for the whole run), and
 * shows that the pooled gap metrics do not grow with the number of tokens. Not a test: run it by hand and read
 * the figures. Heap is read with {@link MemoryMXBean} after repeated GCs around creating N objects, so figures
 * are averages including the list that holds them; the prompt (shared here) is not counted.
 *
 * <p>{@code ./mvnw -q -pl core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.goodput.core.bench.MemoryPerRequestBenchmark}
 */
public final class MemoryPerRequestBenchmark {

    private static final int TOKENS_PER_REQUEST = 256;

    public static void main(String[] args) {
        RequestSpec spec = RequestSpec.completion("x", TOKENS_PER_REQUEST);
        byte[][] reads = streamReads();
        completedRecords(spec, reads, 2_000); // warm-up
        inFlight(spec, reads, 2_000);
        System.out.printf(
                Locale.ROOT,
                "per completed request (RequestRecord, successful 256-token stream): %.0f bytes%n",
                completedRecords(spec, reads, 50_000));
        System.out.printf(
                Locale.ROOT,
                "per failed request (RequestRecord with its own reason string): %.0f bytes%n",
                failedRecords(50_000));
        System.out.printf(
                Locale.ROOT,
                "per request in flight (halfway through a 256-token stream): %.0f bytes%n",
                inFlight(spec, reads, 5_000));
        pooledGapsStayFlat(spec, reads);
    }

    private static double completedRecords(RequestSpec spec, byte[][] reads, int count) {
        List<RequestRecord> kept = new ArrayList<>(count);
        long before = usedHeapAfterGc();
        for (int i = 0; i < count; i++) {
            StreamAttempt request = stream(spec, reads, i, reads.length);
            kept.add(request.request().record());
        }
        long after = usedHeapAfterGc();
        if (kept.get(count - 1).outputTokens() != TOKENS_PER_REQUEST) {
            throw new IllegalStateException("the stream did not complete");
        }
        return (double) (after - before) / count;
    }

    private static double failedRecords(int count) {
        List<RequestRecord> kept = new ArrayList<>(count);
        long before = usedHeapAfterGc();
        for (int i = 0; i < count; i++) {
            StreamAttempt request = new DirectRequests().send(i, RequestSpec.completion("x", TOKENS_PER_REQUEST), i);
            request.onHeaders(503, "application/json", i);
            request.onBytes(
                    ByteBuffer.wrap(("{\"error\":{\"message\":\"Service unavailable, request " + i
                                    + "\",\"type\":\"ServiceUnavailableError\",\"code\":503}}")
                            .getBytes(StandardCharsets.UTF_8)),
                    i);
            request.onEndOfStream(i);
            kept.add(request.request().record());
        }
        long after = usedHeapAfterGc();
        return (double) (after - before) / count;
    }

    private static double inFlight(RequestSpec spec, byte[][] reads, int count) {
        List<StreamAttempt> kept = new ArrayList<>(count);
        long before = usedHeapAfterGc();
        for (int i = 0; i < count; i++) {
            kept.add(stream(spec, reads, i, reads.length / 2));
        }
        long after = usedHeapAfterGc();
        if (!kept.get(0).hasFirstToken()) {
            throw new IllegalStateException("the stream did not start");
        }
        return (double) (after - before) / count;
    }

    /** Streams tens of millions of tokens through the pooled histograms and prints their heap at milestones. */
    private static void pooledGapsStayFlat(RequestSpec spec, byte[][] reads) {
        PooledGaps gaps = new PooledGaps();
        DirectRequests requests = new DirectRequests();
        long before = usedHeapAfterGc();
        long tokens = 0;
        int sent = 0;
        for (long milestone : new long[] {1_000_000, 10_000_000, 30_000_000}) {
            while (tokens < milestone) {
                stream(requests, spec, reads, sent++, reads.length);
                gaps.add(requests.last());
                requests.finished().clear();
                tokens += TOKENS_PER_REQUEST;
            }
            System.out.printf(
                    Locale.ROOT,
                    "pooled ICL/ITL histograms after %,d tokens: %,d bytes above the start%n",
                    tokens,
                    usedHeapAfterGc() - before);
        }
        if (gaps.icl().getTotalCount() == 0) {
            throw new IllegalStateException("no gaps recorded");
        }
    }

    private static StreamAttempt stream(RequestSpec spec, byte[][] reads, int index, int readCount) {
        return stream(new DirectRequests(), spec, reads, index, readCount);
    }

    private static StreamAttempt stream(
            DirectRequests requests, RequestSpec spec, byte[][] reads, int index, int readCount) {
        long now = index * 1_000_000L;
        StreamAttempt request = requests.send(index, spec, now);
        request.onHeaders(200, "text/event-stream", now);
        for (int r = 0; r < readCount; r++) {
            now += 10_000;
            request.onBytes(ByteBuffer.wrap(reads[r]), now);
        }
        return request;
    }

    private static byte[][] streamReads() {
        List<byte[]> reads = new ArrayList<>();
        reads.add(SseText.roleChunk().getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < TOKENS_PER_REQUEST; i++) {
            reads.add(SseText.contentChunkWithUsage(
                            " word" + (i % 10), i == TOKENS_PER_REQUEST - 1 ? "length" : null, 32, i + 1)
                    .getBytes(StandardCharsets.UTF_8));
        }
        reads.add((SseText.usageChunk(32, TOKENS_PER_REQUEST) + SseText.DONE).getBytes(StandardCharsets.UTF_8));
        return reads.toArray(new byte[0][]);
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
