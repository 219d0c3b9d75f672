package dev.goodput.core.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.transport.internal.sse.ChunkDecoder;
import dev.goodput.core.transport.internal.sse.SseEvent;
import dev.goodput.core.transport.internal.sse.SseFormatException;
import dev.goodput.core.transport.internal.sse.SseListener;
import dev.goodput.core.transport.internal.sse.SseParser;
import dev.goodput.core.transport.internal.sse.StreamChunk;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Measures the SSE parser and the chunk decoder on a realistic vLLM chat stream of one-token content
 * events, fed in realistic read sizes. Not a test: run it by hand and read the numbers.
 *
 * <pre>
 * ./mvnw -q -pl core test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.goodput.core.bench.SseParserBenchmark [-Dexec.args="1000000 5 10"]
 * </pre>
 *
 * <p>Arguments: events per iteration (default 1,000,000), warm-up iterations (default 5), measured
 * iterations (default 10), and optionally a word that the scenarios to run must contain ({@code decode}). The stream is a block of {@value #BLOCK_EVENTS} events fed repeatedly, so that
 * memory stays small. Reported per scenario: the median iteration's events/s, MB/s and wall ns per event;
 * CPU time per million events of the feeding thread, and of the whole JVM (adds garbage collection and
 * JIT, and anything else the JVM runs); and bytes allocated per event, when the JVM can tell.
 */
public final class SseParserBenchmark {

    private static final int BLOCK_EVENTS = 10_000;
    private static final String[] TOKENS = {
        " the", " of", " and", " to", " in", " model", " token", ",", ".", " é", " 世界", " 🚀", "\\n", " \\\"x\\\""
    };

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU time of the whole JVM, which includes the garbage collector's threads, or {@code null}. */
    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                    ? os
                    : null;

    /** HotSpot's extension that counts allocated bytes per thread, or {@code null} where unavailable. */
    private static final com.sun.management.ThreadMXBean ALLOCATIONS =
            THREADS instanceof com.sun.management.ThreadMXBean threads && threads.isThreadAllocatedMemoryEnabled()
                    ? threads
                    : null;

    private SseParserBenchmark() {}

    /** Runs every scenario and prints one line per scenario. */
    public static void main(String[] args) throws Exception {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        String only = args.length > 3 ? args[3] : "";
        int blocks = Math.max(1, events / BLOCK_EVENTS);
        byte[] block = buildBlock();
        int[] smallReads = smallReadEnds(block);
        int[] largeReads = fixedReadEnds(block.length, 16 * 1024);

        System.out.printf(
                Locale.ROOT,
                "vLLM chat stream: %d events per iteration, %.1f bytes per event, %d warm-up and %d measured"
                        + " iterations; medians%n",
                (long) blocks * BLOCK_EVENTS,
                block.length / (double) BLOCK_EVENTS,
                warmups,
                iterations);
        System.out.printf(
                Locale.ROOT,
                "%-48s %10s %7s %9s %13s %13s %11s%n",
                "scenario",
                "events/s",
                "MB/s",
                "ns/event",
                "CPU ms/1M ev",
                "JVM CPU ms/1M",
                "bytes/event");
        for (Mode mode : Mode.values()) {
            if (!mode.label.contains(only)) {
                continue;
            }
            run(mode, "1-4 events per read", block, smallReads, blocks, warmups, iterations);
            run(mode, "16 KiB reads", block, largeReads, blocks, warmups, iterations);
        }
    }

    private enum Mode {
        PARSE_ONLY("parse only"),
        PARSE_AND_DECODE("parse + decode"),
        PARSE_AND_READ_TREE("parse + readTree (baseline)");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /** Counts what it receives so that the JIT cannot drop the work. */
    private static final class Sink implements SseListener {
        private final Mode mode;
        private final ChunkDecoder decoder = new ChunkDecoder();
        private final ObjectMapper mapper = new ObjectMapper();
        long events;
        long checksum;

        Sink(Mode mode) {
            this.mode = mode;
        }

        @Override
        public void onEvent(SseEvent event, long receivedNanos) {
            events++;
            switch (mode) {
                case PARSE_ONLY -> checksum += event.data().length();
                case PARSE_AND_DECODE -> {
                    StreamChunk chunk = decoder.decode(event);
                    checksum += chunk.text().length() + chunk.kind().ordinal();
                }
                case PARSE_AND_READ_TREE -> checksum += readTree(event.data()).size();
            }
        }

        private JsonNode readTree(String data) {
            try {
                return mapper.readTree(data);
            } catch (Exception e) {
                return mapper.missingNode();
            }
        }
    }

    private static void run(
            Mode mode, String reads, byte[] block, int[] readEnds, int blocks, int warmups, int iterations)
            throws SseFormatException {
        long[] wallNanos = new long[iterations];
        long[] cpuNanos = new long[iterations];
        long[] processCpuNanos = new long[iterations];
        long[] allocated = new long[iterations];
        long events = 0;
        long checksum = 0;
        for (int i = -warmups; i < iterations; i++) {
            Sink sink = new Sink(mode);
            SseParser parser = new SseParser(sink);
            long allocatedBefore = allocatedBytes();
            long cpuBefore = THREADS.getCurrentThreadCpuTime();
            long processCpuBefore = processCpuNanos();
            long wallBefore = System.nanoTime();
            for (int b = 0; b < blocks; b++) {
                int start = 0;
                for (int end : readEnds) {
                    parser.feed(block, start, end - start, end);
                    start = end;
                }
            }
            parser.finish(0);
            if (i >= 0) {
                wallNanos[i] = System.nanoTime() - wallBefore;
                cpuNanos[i] = THREADS.getCurrentThreadCpuTime() - cpuBefore;
                processCpuNanos[i] = processCpuNanos() - processCpuBefore;
                allocated[i] = allocatedBytes() - allocatedBefore;
            }
            events = sink.events;
            checksum += sink.checksum;
        }
        double wall = median(wallNanos);
        double megabytes = (double) block.length * blocks / 1_000_000.0;
        double bytesPerEvent = median(allocated) / events;
        System.out.printf(
                Locale.ROOT,
                "%-48s %10.0f %7.1f %9.1f %13.1f %13s %11s   (sink %d)%n",
                mode.label + ", " + reads,
                events / (wall / 1e9),
                megabytes / (wall / 1e9),
                wall / events,
                median(cpuNanos) / 1e6 / (events / 1e6),
                PROCESS == null
                        ? "n/a"
                        : String.format(Locale.ROOT, "%.1f", median(processCpuNanos) / 1e6 / (events / 1e6)),
                ALLOCATIONS == null ? "n/a" : String.format(Locale.ROOT, "%.0f", bytesPerEvent),
                checksum % 1000);
    }

    /** A vLLM chat stream with continuous usage: role-only chunk, one-token chunks, usage chunk, [DONE]. */
    private static byte[] buildBlock() {
        StringBuilder stream = new StringBuilder();
        String prefix =
                "data: {\"id\":\"chatcmpl-5b8e4f0c2a7d4b1e9c3f6a2d8e0b7c41\",\"object\":\"chat.completion.chunk\","
                        + "\"created\":1763700000,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[{\"index\":0,";
        stream.append(prefix)
                .append(
                        "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}],")
                .append("\"usage\":{\"prompt_tokens\":512,\"total_tokens\":512,\"completion_tokens\":0}}\n\n");
        for (int i = 1; i < BLOCK_EVENTS - 2; i++) {
            stream.append(prefix)
                    .append("\"delta\":{\"content\":\"")
                    .append(TOKENS[i % TOKENS.length])
                    .append("\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":{\"prompt_tokens\":512,")
                    .append("\"total_tokens\":")
                    .append(512 + i)
                    .append(",\"completion_tokens\":")
                    .append(i)
                    .append("}}\n\n");
        }
        stream.append(
                        "data: {\"id\":\"chatcmpl-5b8e4f0c2a7d4b1e9c3f6a2d8e0b7c41\",\"object\":\"chat.completion.chunk\",")
                .append("\"created\":1763700000,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[],")
                .append("\"usage\":{\"prompt_tokens\":512,\"total_tokens\":10509,\"completion_tokens\":9997}}\n\n")
                .append("data: [DONE]\n\n");
        return stream.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Read ends after 1 to 4 whole events each, as a server flushing per token and a fast network give. */
    private static int[] smallReadEnds(byte[] block) {
        SplittableRandom random = new SplittableRandom(1);
        int[] ends = new int[BLOCK_EVENTS];
        int count = 0;
        int eventsInRead = 1 + random.nextInt(4);
        for (int i = 1; i < block.length; i++) {
            if (block[i] == '\n' && block[i - 1] == '\n' && --eventsInRead == 0) {
                ends[count++] = i + 1;
                eventsInRead = 1 + random.nextInt(4);
            }
        }
        if (count == 0 || ends[count - 1] != block.length) {
            ends[count++] = block.length;
        }
        return Arrays.copyOf(ends, count);
    }

    private static int[] fixedReadEnds(int length, int readSize) {
        int[] ends = new int[(length + readSize - 1) / readSize];
        for (int i = 0; i < ends.length; i++) {
            ends[i] = Math.min(length, (i + 1) * readSize);
        }
        return ends;
    }

    private static long processCpuNanos() {
        return PROCESS == null ? 0 : PROCESS.getProcessCpuTime();
    }

    private static long allocatedBytes() {
        return ALLOCATIONS == null ? 0 : ALLOCATIONS.getCurrentThreadAllocatedBytes();
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
    }
}
