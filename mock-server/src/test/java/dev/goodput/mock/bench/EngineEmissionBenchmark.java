package dev.goodput.mock.bench;

import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.internal.engine.Engines;
import dev.goodput.mock.internal.engine.Generation;
import dev.goodput.mock.internal.engine.InferenceEngine;
import dev.goodput.mock.internal.engine.TokenSink;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

/**
 * Measures how precisely the real-time engines deliver emissions: each sink records {@code System.nanoTime() -
 * intendedNanos} per call, and the run reports lateness percentiles, tokens per second and CPU time. Not a test:
 * run it with
 *
 * <pre>
 * ./mvnw -q -pl mock-server test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.goodput.mock.bench.EngineEmissionBenchmark
 * </pre>
 */
public final class EngineEmissionBenchmark {

    private static final long MS = 1_000_000;

    private EngineEmissionBenchmark() {}

    /** One load to drive through an engine. */
    private record Scenario(
            String title, PerformanceModel model, int requests, long spreadNanos, int promptTokens, int outputTokens) {

        /** The same load with short outputs, to warm the JIT up before measuring. */
        Scenario warmUp() {
            return new Scenario(title, model, requests, spreadNanos, promptTokens, Math.min(outputTokens, 50));
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Scenario[] scenarios = {
            // Fixed mode: 1,000 concurrent streams of 500 tokens at TPOT 20 ms = 50,000 tokens/s, arrivals spread
            // over one TPOT so that emissions are spread as an open-loop load spreads them.
            new Scenario(
                    "fixed 50 ms / 20 ms, 1,000 concurrent streams x 500 tokens",
                    PerformanceModel.fixed(Duration.ofMillis(50), Duration.ofMillis(20)),
                    1_000,
                    20 * MS,
                    16,
                    500),
            // The H100 preset at high load: 1,000 requests within a second, more than its KV cache holds at once.
            new Scenario(
                    "h100-llama3-8b, 1,000 requests in 1 s, 512 prompt + 200 output tokens",
                    PerformanceModel.preset("h100-llama3-8b"),
                    1_000,
                    1_000 * MS,
                    512,
                    200),
            new Scenario(
                    "tiny-test, 200 requests in 1 s, 64 prompt + 64 output tokens",
                    PerformanceModel.preset("tiny-test"),
                    200,
                    1_000 * MS,
                    64,
                    64)
        };
        for (Scenario scenario : scenarios) {
            run(scenario.warmUp(), false);
        }
        for (Scenario scenario : scenarios) {
            run(scenario, true);
        }
    }

    private static void run(Scenario scenario, boolean report) throws InterruptedException {
        int requests = scenario.requests();
        int promptTokens = scenario.promptTokens();
        int outputTokens = scenario.outputTokens();
        long spreadNanos = scenario.spreadNanos();
        LatenessRecorder recorder = new LatenessRecorder(requests * outputTokens + requests);
        CountDownLatch finished = new CountDownLatch(requests);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long start = System.nanoTime();
        long engineCpu;
        try (InferenceEngine engine = Engines.start(scenario.model())) {
            long[] prompt = LongStream.range(0, promptTokens).toArray();
            for (int i = 0; i < requests; i++) {
                long arrival = start + spreadNanos * i / requests;
                long wait = arrival - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                long[] own = prompt.clone();
                own[0] = i; // distinct first blocks: no prefix sharing
                engine.submit(
                        new Generation("r" + i, System.nanoTime(), own, outputTokens, 0, true, i),
                        new RecordingSink(recorder, finished));
            }
            if (!finished.await(600, TimeUnit.SECONDS)) {
                System.out.println("did not finish in time");
            }
            engineCpu = engineThreadCpu(threads);
        }
        long elapsed = System.nanoTime() - start;
        long cpu = os.getProcessCpuTime() - cpuBefore;
        if (!report) {
            return;
        }
        long[] lateness = recorder.sorted();
        System.out.printf("%n== %s%n", scenario.title());
        System.out.printf(
                "tokens %,d in %.2f s = %,.0f tokens/s; emissions %,d%n",
                recorder.tokens, elapsed / 1e9, recorder.tokens / (elapsed / 1e9), lateness.length);
        System.out.printf(
                "lateness p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms%n",
                percentile(lateness, 50) / 1e6,
                percentile(lateness, 99) / 1e6,
                percentile(lateness, 99.9) / 1e6,
                lateness[lateness.length - 1] / 1e6);
        System.out.printf(
                "emissions more than 1 ms late: %,d (%.3f%%); the worst was %.2f s into the run%n",
                recorder.late, 100.0 * recorder.late / lateness.length, (recorder.worstAtNanos - start) / 1e9);
        System.out.printf(
                "CPU: process %.2f s (%.0f%% of one core), engine thread %.2f s%n",
                cpu / 1e9, 100.0 * cpu / elapsed, engineCpu / 1e9);
    }

    private static long engineThreadCpu(ThreadMXBean threads) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("goodput-mock-"))
                .mapToLong(t -> threads.getThreadCpuTime(t.getId()))
                .sum();
    }

    private static long percentile(long[] sorted, double percent) {
        int index = (int) Math.ceil(percent / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    /** Lateness samples from the single engine thread that calls the sinks. */
    private static final class LatenessRecorder {
        private final long[] samples;
        private int count;
        private long tokens;

        LatenessRecorder(int capacity) {
            samples = new long[capacity];
        }

        private long late;
        private long worstNanos;
        private long worstAtNanos;

        void record(long latenessNanos, int tokenCount) {
            if (count < samples.length) {
                samples[count++] = latenessNanos;
            }
            tokens += tokenCount;
            if (latenessNanos > MS) {
                late++;
            }
            if (latenessNanos > worstNanos) {
                worstNanos = latenessNanos;
                worstAtNanos = System.nanoTime();
            }
        }

        long[] sorted() {
            long[] copy = Arrays.copyOf(samples, count);
            Arrays.sort(copy);
            return copy;
        }
    }

    private record RecordingSink(LatenessRecorder recorder, CountDownLatch finished) implements TokenSink {

        @Override
        public void onTokens(int firstTokenIndex, int count, long intendedNanos) {
            recorder.record(System.nanoTime() - intendedNanos, count);
        }

        @Override
        public void onFinish(String finishReason, long intendedNanos) {
            finished.countDown();
        }

        @Override
        public boolean isCancelled() {
            return false;
        }
    }
}
