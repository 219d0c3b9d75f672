package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The batching engine's runner on real time. Bounds are loose: build machines are noisy. */
class BatchingEngineTest {

    private static final long MS = 1_000_000;

    /**
     * How late a delivery may be before the test fails. Loose on purpose: shared build machines stall threads for
     * tens of milliseconds (54 ms seen on a busy 2-core box); what must never happen is an early delivery.
     */
    private static final long LATENESS_BOUND_NANOS = 500 * MS;

    @Test
    @DisplayName("The runner emits single-slot tokens at their exact intended times, never before them")
    void runnerEmitsOnTimeAndNeverEarly() throws InterruptedException {
        PerformanceModel model = PerformanceModel.singleSlot(Duration.ofMillis(30), Duration.ofMillis(5));
        List<RecordingSink> sinks = new ArrayList<>();
        long arrival;
        try (InferenceEngine engine = Engines.start(model)) {
            arrival = System.nanoTime();
            for (int i = 0; i < 3; i++) {
                RecordingSink sink = new RecordingSink();
                engine.submit(Generations.ignoringEos("r" + i, arrival, 20, 4), sink);
                sinks.add(sink);
            }
            for (RecordingSink sink : sinks) {
                assertThat(sink.awaitFinish(10)).isTrue();
            }
            assertThat(engine.snapshot().generationTokens()).isEqualTo(12);
        }
        // Each request takes 30 + 3 x 5 = 45 ms of the single slot, in submission order.
        for (int r = 0; r < sinks.size(); r++) {
            long firstToken = arrival + r * 45 * MS + 30 * MS;
            RecordingSink sink = sinks.get(r);
            assertThat(sink.emissions)
                    .extracting(RecordingSink.Emission::intendedNanos)
                    .containsExactly(firstToken, firstToken + 5 * MS, firstToken + 10 * MS, firstToken + 15 * MS);
            for (RecordingSink.Emission emission : sink.emissions) {
                assertThat(emission.deliveredNanos() - emission.intendedNanos())
                        .as("lateness in ns")
                        .isBetween(0L, LATENESS_BOUND_NANOS);
            }
        }
    }

    @Test
    @DisplayName("Submissions count at once in the snapshot, and closing finishes running and waiting ones with abort")
    void closingAbortsWhatIsLeft() throws InterruptedException {
        RecordingSink running = new RecordingSink();
        RecordingSink waiting = new RecordingSink();
        InferenceEngine engine =
                Engines.start(PerformanceModel.preset("tiny-test").withMaxNumSeqs(1));
        engine.submit(Generations.ignoringEos("a", System.nanoTime(), 10, 1000), running);
        engine.submit(Generations.ignoringEos("b", System.nanoTime(), 10, 1000), waiting);
        // Counted at once, before the runner's next step boundary: as waiting until admitted.
        EngineSnapshot justSubmitted = engine.snapshot();
        assertThat(justSubmitted.running() + justSubmitted.waiting()).isEqualTo(2);
        long deadline = System.nanoTime() + 5_000 * MS;
        while (engine.snapshot().running() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5); // the first step ends after ~11 ms of model time, later on a busy machine
        }
        assertThat(engine.snapshot().running()).isEqualTo(1);
        assertThat(engine.snapshot().waiting()).isEqualTo(1);
        engine.close();
        assertThat(running.awaitFinish(5)).isTrue();
        assertThat(waiting.awaitFinish(5)).isTrue();
        assertThat(running.finishReason).isEqualTo("abort");
        assertThat(waiting.finishReason).isEqualTo("abort");
        RecordingSink late = new RecordingSink();
        engine.submit(Generations.ignoringEos("c", System.nanoTime(), 10, 10), late);
        assertThat(late.finishReason).isEqualTo("abort");
    }

    @Test
    @DisplayName("An idle runner does not spin: it uses next to no CPU while waiting for work")
    void idleRunnerDoesNotSpin() throws InterruptedException {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        try (InferenceEngine engine = Engines.start(PerformanceModel.preset("tiny-test"))) {
            Thread.sleep(20);
            Thread runner = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals("goodput-mock-batching-engine"))
                    .findFirst()
                    .orElseThrow();
            long before = threads.getThreadCpuTime(runner.getId());
            Thread.sleep(200);
            long used = threads.getThreadCpuTime(runner.getId()) - before;
            assertThat(used).as("runner CPU ns while idle for 200 ms").isLessThan(20 * MS);
        }
    }

    @Test
    @DisplayName("Generations submitted from many threads at once all complete, in order, never early")
    void concurrentSubmissionsAllComplete() throws InterruptedException {
        int threads = 8;
        int perThread = 50;
        List<RecordingSink> sinks = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (InferenceEngine engine = Engines.start(PerformanceModel.preset("h100-llama3-8b"))) {
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                Thread submitter = new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        RecordingSink sink = new RecordingSink();
                        sinks.add(sink);
                        engine.submit(Generations.ignoringEos("t" + thread + "-" + i, System.nanoTime(), 32, 5), sink);
                    }
                });
                submitter.start();
                submitters.add(submitter);
            }
            for (Thread submitter : submitters) {
                submitter.join();
            }
            for (RecordingSink sink : sinks) {
                assertThat(sink.awaitFinish(10)).isTrue();
            }
            assertThat(engine.snapshot().generationTokens()).isEqualTo(threads * perThread * 5L);
            assertThat(engine.snapshot().running() + engine.snapshot().waiting())
                    .isZero();
        }
        for (RecordingSink sink : sinks) {
            assertThat(sink.finishReason).isEqualTo("length");
            assertThat(sink.emissions)
                    .extracting(RecordingSink.Emission::firstTokenIndex)
                    .containsExactly(0, 1, 2, 3, 4);
            assertThat(sink.emissions)
                    .allSatisfy(e -> assertThat(e.deliveredNanos()).isGreaterThanOrEqualTo(e.intendedNanos()));
        }
    }

    @Test
    @DisplayName("A reset engine's snapshot reads as a fresh engine's as soon as the reset returns")
    void resetPublishesAFreshSnapshot() throws Exception {
        PerformanceModel model = PerformanceModel.preset("tiny-test");
        try (InferenceEngine engine = Engines.start(model)) {
            RecordingSink sink = new RecordingSink();
            engine.submit(Generations.ignoringEos("r", System.nanoTime(), 200, 4), sink);
            assertThat(sink.awaitFinish(10)).isTrue();
            assertThat(engine.snapshot().busyNanos()).isPositive();

            engine.reset(Duration.ofSeconds(10));

            assertThat(engine.snapshot()).isEqualTo(new EngineSnapshot(0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        }
    }
}
