package dev.goodput.core.bench;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.PooledGaps;
import dev.goodput.core.testing.DirectRequests;
import dev.goodput.core.testing.SseText;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import dev.goodput.core.transport.internal.Transports;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Measures the heap a run holds per request: per request in flight (its parser, gap arrays and state, halfway
 * through a 256-token stream) and per completed request (its {@link RequestRecord}, kept for the whole run), and
 * shows that the pooled gap metrics do not grow with the number of tokens. Not a test: run it by hand and read
 * the figures. Heap is read with {@link MemoryMXBean} after repeated GCs around creating N objects, so figures
 * are averages including the list that holds them; the prompt (shared here) is not counted.
 *
 * <p>With an argument N it runs instead N concurrent streams over a real transport against the simulated server in
 * another JVM and measures what each stream costs with its connection, and what a finished run keeps per request
 * ({@link #streamsOverConnections}); {@code -Dgoodput.client.transport=netty} with transport-netty's test class path
 * measures Netty.
 *
 * <p>{@code ./mvnw -q -pl core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.goodput.core.bench.MemoryPerRequestBenchmark [-Dexec.args=1000]}
 */
public final class MemoryPerRequestBenchmark {

    private static final int TOKENS_PER_REQUEST = 256;

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {
            streamsOverConnections(Integer.parseInt(args[0]));
            return;
        }
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

    /**
     * Runs {@code streams} concurrent streams over the transport {@value Transports#SETTING} names against the
     * simulated server in its own JVM (so that its heap is not counted), and measures halfway through them the heap,
     * direct buffers and file descriptors per stream, connection included; then, once the run has ended, the heap its
     * result keeps per request (20 requests a stream of 8 tokens). Each measured stream is 400 tokens at 50 ms (20 s).
     */
    private static void streamsOverConnections(int streams) throws Exception {
        Process server = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.goodput.mock.internal.cli.MockServerMain",
                        "--port",
                        "0",
                        "--fixed-ttft-ms",
                        "20",
                        "--fixed-tpot-ms",
                        "50",
                        "--max-connections",
                        String.valueOf(streams + 100))
                .redirectErrorStream(true)
                .start();
        try {
            String banner = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            Matcher url = Pattern.compile("(http://\\S+)").matcher(String.valueOf(banner));
            if (!url.find()) {
                throw new IllegalStateException("the simulated server did not start: " + banner);
            }
            ServerEndpoint endpoint = ServerEndpoint.of(url.group(1), "goodput/mock-llama-3-8b");
            run(endpoint, 20, 4, 4); // warm-up: classes, the client's own warm-up, JIT
            long heapBefore = usedHeapAfterGc();
            long directBefore = directBuffers();
            long descriptorsBefore = openDescriptors();
            CompletableFuture<RunResult> run =
                    CompletableFuture.supplyAsync(() -> run(endpoint, 400, streams, streams));
            // Until every stream has its connection (on a busy machine the ramp takes seconds), then a little more.
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (openDescriptors() - descriptorsBefore < streams && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            Thread.sleep(2_000);
            long heapDuring = usedHeapAfterGc();
            long directDuring = directBuffers();
            long descriptorsDuring = openDescriptors();
            run.get();
            run = null;
            RunResult result = run(endpoint, 8, streams, 20 * streams);
            long heapWithResult = usedHeapAfterTransportsEnded();
            int requests = result.records().size();
            result = null;
            long heapAfter = usedHeapAfterTransportsEnded();
            System.out.printf(
                    Locale.ROOT,
                    "%s transport, %,d streams of 400 tokens in flight, connection included: %,.0f bytes of heap,"
                            + " %,.0f bytes of direct buffers, %.2f file descriptors per stream%n",
                    Transports.configuredName(),
                    streams,
                    (double) (heapDuring - heapBefore) / streams,
                    (double) (directDuring - directBefore) / streams,
                    (double) (descriptorsDuring - descriptorsBefore) / streams);
            System.out.printf(
                    Locale.ROOT,
                    "per completed request as the run's result keeps it (%,d requests of 8 tokens): %.0f bytes%n",
                    requests,
                    (double) (heapWithResult - heapAfter) / requests);
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    private static RunResult run(ServerEndpoint endpoint, int outputTokens, int streams, int requests) {
        return Goodput.newRun(endpoint)
                .workload(WorkloadSpec.synthetic()
                        .inputTokens(32)
                        .outputTokens(outputTokens)
                        .build())
                .load(Load.concurrency(streams).requests(requests))
                .preflight(false)
                .run();
    }

    /**
     * The used heap once the JDK clients of finished runs have ended: on JDK 17 a closed client's selector thread
     * keeps its connections until it wakes (at most 3 s) after a GC cleared the client.
     */
    private static long usedHeapAfterTransportsEnded() throws InterruptedException {
        System.gc();
        Thread.sleep(4_000);
        return usedHeapAfterGc();
    }

    private static long directBuffers() {
        return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(pool -> pool.getName().equals("direct"))
                .mapToLong(BufferPoolMXBean::getMemoryUsed)
                .sum();
    }

    private static long openDescriptors() {
        return ((UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getOpenFileDescriptorCount();
    }

    private static double completedRecords(RequestSpec spec, byte[][] reads, int count) {
        List<RequestRecord> kept = new ArrayList<>(count);
        long before = usedHeapAfterGc();
        for (int i = 0; i < count; i++) {
            MeasuredAttempt request = stream(spec, reads, i, reads.length);
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
            MeasuredAttempt request = new DirectRequests().send(i, RequestSpec.completion("x", TOKENS_PER_REQUEST), i);
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
        List<MeasuredAttempt> kept = new ArrayList<>(count);
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

    private static MeasuredAttempt stream(RequestSpec spec, byte[][] reads, int index, int readCount) {
        return stream(new DirectRequests(), spec, reads, index, readCount);
    }

    private static MeasuredAttempt stream(
            DirectRequests requests, RequestSpec spec, byte[][] reads, int index, int readCount) {
        long now = index * 1_000_000L;
        MeasuredAttempt request = requests.send(index, spec, now);
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
