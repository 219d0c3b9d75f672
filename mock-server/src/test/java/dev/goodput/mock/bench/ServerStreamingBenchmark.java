package dev.goodput.mock.bench;

import dev.goodput.mock.ChunkTiming;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.RequestTruth;
import dev.goodput.mock.internal.engine.EngineSnapshot;
import dev.goodput.mock.internal.engine.Engines;
import dev.goodput.mock.internal.engine.Generation;
import dev.goodput.mock.internal.engine.InferenceEngine;
import dev.goodput.mock.internal.engine.TokenSink;
import dev.goodput.mock.internal.http.ServerRuntime;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How precisely the mock server keeps its performance model's schedule under load: opens many concurrent streams
 * from a raw-socket loopback client (one selector thread, so the client costs little CPU) and reports, from the
 * server's ground truth, how late each chunk left (actual send time minus the model's intended time), the
 * sustained token rate and the process CPU.
 *
 * <p>Arguments (all optional): streams (1000), tokens per stream (500), TPOT ms (20), ramp ms over which the
 * streams start (1000), writer threads (server default), a performance preset name (default: the fixed model
 * with TTFT 50 ms and the given TPOT).
 *
 * <p>Run: {@code ./mvnw -q -pl mock-server test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.goodput.mock.bench.ServerStreamingBenchmark -Dexec.args="1000 500 20 1000"}
 */
public final class ServerStreamingBenchmark {

    private ServerStreamingBenchmark() {}

    public static void main(String[] args) throws Exception {
        int streams = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        long tpotMillis = args.length > 2 ? Long.parseLong(args[2]) : 20;
        long rampMillis = args.length > 3 ? Long.parseLong(args[3]) : 1000;
        MockServerConfig.Builder config = MockServerConfig.builder()
                .performanceModel(PerformanceModel.fixed(Duration.ofMillis(50), Duration.ofMillis(tpotMillis)))
                .groundTruthCapacity(streams);
        if (args.length > 4) {
            config.writerThreads(Integer.parseInt(args[4]));
        }
        if (args.length > 5) {
            // A batching preset instead: the TPOT argument is then ignored and steps emit many chunks at once.
            config.performanceModel(PerformanceModel.preset(args[5]));
        }
        // Warm up the JIT on a short run so the measured run is steady.
        MockServerConfig built = config.build();
        try (ServerRuntime warmup =
                ServerRuntime.start(built, new LatenessProbe(Engines.start(built.performanceModel()), 0))) {
            new LoopbackClient(warmup.port(), built.modelName(), Math.min(200, streams), 100, 200).run();
        }
        LatenessProbe engine = new LatenessProbe(Engines.start(built.performanceModel()), streams * tokens);
        try (ServerRuntime server = ServerRuntime.start(built, engine)) {
            long cpuBefore = processCpuNanos();
            long serverCpuBefore = serverThreadsCpuNanos();
            long wallBefore = System.nanoTime();
            new LoopbackClient(server.port(), built.modelName(), streams, tokens, rampMillis).run();
            long wall = System.nanoTime() - wallBefore;
            long cpu = processCpuNanos() - cpuBefore;
            long serverCpu = serverThreadsCpuNanos() - serverCpuBefore;
            while (server.groundTruth().size() < streams) {
                Thread.sleep(10);
            }
            report(streams, tokens, tpotMillis, server.groundTruth(), wall, cpu, built.writerThreads());
            System.out.printf(
                    "server threads (goodput-mock-*: engine, HTTP loop, writers) CPU %.2f cores%n",
                    serverCpu / (double) wall);
            long[] engineLate = engine.sortedLateness();
            System.out.printf(
                    "  engine lateness (sink called - intended; with writes on the engine thread, the default, this includes"
                            + " earlier sinks' writes): p50 %.3f ms, p99 %.3f ms, "
                            + "p99.9 %.3f ms, max %.3f ms%n",
                    percentile(engineLate, 50) / 1e6,
                    percentile(engineLate, 99) / 1e6,
                    percentile(engineLate, 99.9) / 1e6,
                    engineLate[engineLate.length - 1] / 1e6);
        }
    }

    private static void report(
            int streams, int tokens, long tpotMillis, List<RequestTruth> truth, long wall, long cpu, int writers) {
        long[] late = truth.stream()
                .flatMap(t -> t.chunks().stream())
                .mapToLong(ChunkTiming::lateNanos)
                .sorted()
                .toArray();
        long chunks = late.length;
        long generated =
                truth.stream().mapToLong(RequestTruth::completionTokens).sum();
        // Steady state: from when the last stream got its first token until the first stream ended.
        long steadyFrom = truth.stream()
                .mapToLong(t -> t.firstTokenSentNanos().orElse(Long.MAX_VALUE))
                .max()
                .orElseThrow();
        long steadyTo = truth.stream().mapToLong(RequestTruth::endNanos).min().orElseThrow();
        long steadyTokens = truth.stream()
                .flatMap(t -> t.chunks().stream())
                .filter(c -> c.sentNanos() >= steadyFrom && c.sentNanos() < steadyTo)
                .mapToLong(ChunkTiming::tokens)
                .sum();
        long incomplete =
                truth.stream().filter(t -> t.completionTokens() != tokens).count();
        System.out.printf(
                "streams %d x %d tokens at TPOT %d ms, %d writer threads, %d processors%n",
                streams, tokens, tpotMillis, writers, Runtime.getRuntime().availableProcessors());
        System.out.printf(
                "completed %d/%d streams, %d chunks, %d tokens%n", streams - incomplete, streams, chunks, generated);
        System.out.printf(
                "sustained %.0f tokens/s (steady window %.1f s), overall %.0f tokens/s%n",
                steadyTo > steadyFrom ? steadyTokens / ((steadyTo - steadyFrom) / 1e9) : Double.NaN,
                (steadyTo - steadyFrom) / 1e9,
                generated / (wall / 1e9));
        System.out.printf(
                "send jitter (sent - intended): p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms%n",
                percentile(late, 50) / 1e6,
                percentile(late, 99) / 1e6,
                percentile(late, 99.9) / 1e6,
                late[late.length - 1] / 1e6);
        System.out.printf(
                "process CPU %.2f cores over %.1f s wall (server and client together)%n",
                cpu / (double) wall, wall / 1e9);
    }

    private static long percentile(long[] sorted, double percentile) {
        int index = (int) Math.ceil(percentile / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** CPU time of the server's threads (all named goodput-mock-...), to tell it from the client's. */
    private static long serverThreadsCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("goodput-mock")) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Opens the streams on a ramp and reads them to their end on one selector thread, discarding the bytes. */
    private static final class LoopbackClient {
        private static final byte[] END = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

        private final int port;
        private final int streams;
        private final byte[] request;
        private final long rampNanos;

        LoopbackClient(int port, String modelName, int streams, int tokens, long rampMillis) {
            this.port = port;
            this.streams = streams;
            this.rampNanos = rampMillis * 1_000_000;
            String body = "{\"model\":\"" + modelName + "\",\"messages\":[{\"role\":\"user\","
                    + "\"content\":\"Write a long story\"}],\"max_tokens\":" + tokens
                    + ",\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
            byte[] json = body.getBytes(StandardCharsets.UTF_8);
            this.request = ("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                            + "application/json\r\nContent-Length: " + json.length + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.UTF_8);
        }

        void run() throws IOException {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
            ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);
            try (Selector selector = Selector.open()) {
                long start = System.nanoTime();
                int opened = 0;
                int finished = 0;
                while (finished < streams) {
                    long due = rampNanos == 0
                            ? streams
                            : Math.min(streams, (System.nanoTime() - start) * streams / rampNanos + 1);
                    for (; opened < due; opened++) {
                        SocketChannel channel = SocketChannel.open(address);
                        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        channel.write(ByteBuffer.wrap(request));
                        channel.configureBlocking(false);
                        channel.register(selector, SelectionKey.OP_READ, new byte[END.length]);
                    }
                    selector.select(1);
                    for (SelectionKey key : selector.selectedKeys()) {
                        SocketChannel channel = (SocketChannel) key.channel();
                        byte[] tail = (byte[]) key.attachment();
                        buffer.clear();
                        int read = channel.read(buffer);
                        if (read > 0) {
                            remember(tail, buffer);
                        }
                        if (read < 0 || Arrays.equals(tail, END)) {
                            key.cancel();
                            channel.close();
                            finished++;
                        }
                    }
                    selector.selectedKeys().clear();
                }
            }
        }

        /** Keeps the last bytes read, to spot the chunked body's terminating chunk. */
        private static void remember(byte[] tail, ByteBuffer buffer) {
            int n = buffer.position();
            int keep = Math.min(n, tail.length);
            System.arraycopy(tail, keep, tail, 0, tail.length - keep);
            for (int i = 0; i < keep; i++) {
                tail[tail.length - keep + i] = buffer.get(n - keep + i);
            }
        }
    }

    /**
     * Wraps the real engine to note when it calls each sink, so the report can split lateness between the
     * engine's timer and the HTTP side (encoding, hand-off to a writer, socket write).
     */
    private static final class LatenessProbe implements InferenceEngine {
        private final InferenceEngine engine;
        private final long[] lateness;
        private final AtomicInteger count = new AtomicInteger();

        LatenessProbe(InferenceEngine engine, int capacity) {
            this.engine = engine;
            this.lateness = new long[capacity];
        }

        @Override
        public void submit(Generation generation, TokenSink sink) {
            engine.submit(generation, new TokenSink() {
                @Override
                public void onTokens(int firstTokenIndex, int tokenCount, long intendedNanos) {
                    int slot = count.getAndIncrement();
                    if (slot < lateness.length) {
                        lateness[slot] = System.nanoTime() - intendedNanos;
                    }
                    sink.onTokens(firstTokenIndex, tokenCount, intendedNanos);
                }

                @Override
                public void onFinish(String finishReason, long intendedNanos) {
                    sink.onFinish(finishReason, intendedNanos);
                }

                @Override
                public boolean isCancelled() {
                    return sink.isCancelled();
                }
            });
        }

        long[] sortedLateness() {
            long[] sorted = Arrays.copyOf(lateness, Math.min(count.get(), lateness.length));
            Arrays.sort(sorted);
            return sorted;
        }

        @Override
        public EngineSnapshot snapshot() {
            return engine.snapshot();
        }

        @Override
        public void reset(java.time.Duration timeout)
                throws java.util.concurrent.TimeoutException, InterruptedException {
            engine.reset(timeout);
        }

        @Override
        public void close() {
            engine.close();
        }
    }
}
