package dev.goodput.core.bench;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.PooledGaps;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.testing.DirectRequests;
import dev.goodput.core.testing.SseText;
import dev.goodput.core.transport.internal.InFlightRequest;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Measures the client's CPU cost per million streamed tokens. Not a test: run it by hand and read the figures.
 *
 * <ol>
 *   <li>Pipeline: vLLM-style chat streams fed through {@link InFlightRequest} in reads of 1-4 events (parse,
 *       decode, timestamps, gaps, record, pooled histograms), on one thread, no network.
 *   <li>End to end: a closed loop against a loopback server that writes pre-built streams as fast as it can;
 *       the client's CPU is the process CPU minus the server threads' own CPU.
 * </ol>
 *
 * {@code ./mvnw -q -pl core test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.goodput.core.bench.EngineCostBenchmark}
 */
public final class EngineCostBenchmark {

    private static final int TOKENS_PER_REQUEST = 256;

    public static void main(String[] args) throws Exception {
        pipeline(2_000_000); // warm-up
        double pipelineNs = pipeline(5_000_000);
        System.out.printf(
                Locale.ROOT,
                "pipeline: %.0f ns CPU per token, %.2f s CPU per million tokens, %.2f M tokens/s on one core%n",
                pipelineNs,
                pipelineNs / 1000,
                1000 / pipelineNs);
        endToEnd(200); // warm-up
        endToEnd(1000);
        endToEnd(4000);
    }

    /** Returns CPU nanoseconds per token. */
    private static double pipeline(int tokens) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        byte[][] reads = streamReads();
        PooledGaps gaps = new PooledGaps();
        DirectRequests direct = new DirectRequests();
        int requests = tokens / TOKENS_PER_REQUEST;
        long cpuStart = threads.getCurrentThreadCpuTime();
        long now = 0;
        for (int r = 0; r < requests; r++) {
            MeasuredAttempt request = direct.send(r, RequestSpec.completion("x", 256), now);
            request.onHeaders(200, "text/event-stream", now);
            for (byte[] read : reads) {
                now += 10_000;
                request.onBytes(ByteBuffer.wrap(read), now);
            }
            gaps.add(direct.last());
            RequestRecord record = direct.last().record();
            direct.finished().clear();
            if (!record.isSuccess()) {
                throw new IllegalStateException(record.errorDetail());
            }
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
        return (double) cpu / ((long) requests * TOKENS_PER_REQUEST);
    }

    /** One request's stream, cut into reads of 1 to 4 events. */
    private static byte[][] streamReads() {
        java.util.List<String> events = new java.util.ArrayList<>();
        events.add(SseText.roleChunk());
        for (int i = 0; i < TOKENS_PER_REQUEST; i++) {
            events.add(SseText.contentChunkWithUsage(
                    " word" + (i % 10), i == TOKENS_PER_REQUEST - 1 ? "length" : null, 32, i + 1));
        }
        events.add(SseText.usageChunk(32, TOKENS_PER_REQUEST) + SseText.DONE);
        java.util.List<byte[]> reads = new java.util.ArrayList<>();
        int i = 0;
        int size = 1;
        while (i < events.size()) {
            StringBuilder read = new StringBuilder();
            for (int k = 0; k < size && i < events.size(); k++) {
                read.append(events.get(i++));
            }
            reads.add(read.toString().getBytes(StandardCharsets.UTF_8));
            size = size % 4 + 1;
        }
        return reads.toArray(new byte[0][]);
    }

    private static void endToEnd(int requests) throws Exception {
        byte[] body = streamBody();
        AtomicLong serverCpu = new AtomicLong();
        try (ServerSocket server = new ServerSocket(0, 512, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> accept(server, body, serverCpu), "bench-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuStart = os.getProcessCpuTime();
            long wallStart = System.nanoTime();
            RunResult result = Goodput.run(
                    ServerEndpoint.of("http://127.0.0.1:" + server.getLocalPort(), "bench"),
                    WorkloadSpec.synthetic()
                            .inputTokens(32)
                            .outputTokens(TOKENS_PER_REQUEST)
                            .build(),
                    Load.concurrency(32).requests(requests));
            long wall = System.nanoTime() - wallStart;
            long processCpu = os.getProcessCpuTime() - cpuStart;
            long clientCpu = processCpu - serverCpu.get() - liveServerCpu();
            long tokens = result.tokens().outputTokens();
            System.out.printf(
                    Locale.ROOT,
                    "end to end: %d requests, %d tokens in %.2f s (%.0f tokens/s); client CPU %.2f s per million"
                            + " tokens; %d succeeded; p50 ICL %.3f ms%n",
                    requests,
                    tokens,
                    wall / 1e9,
                    tokens / (wall / 1e9),
                    clientCpu / 1e9 / (tokens / 1e6),
                    result.accounting().count(dev.goodput.core.record.Outcome.SUCCESS),
                    result.summary(Metric.ICL).percentile(50) / 1e6);
        }
    }

    private static final java.util.Set<Long> SERVER_THREADS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** CPU of server threads still serving keep-alive connections (ended ones added theirs on exit). */
    private static long liveServerCpu() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (long id : SERVER_THREADS) {
            long cpu = threads.getThreadCpuTime(id);
            if (cpu > 0) {
                total += cpu;
            }
        }
        SERVER_THREADS.clear();
        return total;
    }

    private static byte[] streamBody() {
        StringBuilder body = new StringBuilder(SseText.roleChunk());
        for (int i = 0; i < TOKENS_PER_REQUEST; i++) {
            body.append(SseText.contentChunkWithUsage(
                    " word" + (i % 10), i == TOKENS_PER_REQUEST - 1 ? "length" : null, 32, i + 1));
        }
        body.append(SseText.usageChunk(32, TOKENS_PER_REQUEST)).append(SseText.DONE);
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void accept(ServerSocket server, byte[] body, AtomicLong serverCpu) {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                Thread handler = new Thread(() -> serve(socket, body, serverCpu), "bench-server");
                handler.setDaemon(true);
                handler.start();
                SERVER_THREADS.add(handler.getId());
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Serves keep-alive requests on one connection; each response is the whole stream in chunked encoding. */
    private static void serve(Socket socket, byte[] body, AtomicLong serverCpu) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        try (socket) {
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
            OutputStream out = socket.getOutputStream();
            while (true) {
                int contentLength = 0;
                String line = in.readLine();
                if (line == null) {
                    return;
                }
                while ((line = in.readLine()) != null && !line.isEmpty()) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        contentLength = Integer.parseInt(line.substring(15).trim());
                    }
                }
                in.skip(contentLength);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: " + body.length
                                + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                for (int offset = 0; offset < body.length; offset += 512) {
                    out.write(body, offset, Math.min(512, body.length - offset));
                    out.flush();
                }
            }
        } catch (IOException e) {
            // connection closed
        } finally {
            if (SERVER_THREADS.remove(Thread.currentThread().getId())) {
                serverCpu.addAndGet(threads.getCurrentThreadCpuTime() - cpuStart);
            }
        }
    }
}
