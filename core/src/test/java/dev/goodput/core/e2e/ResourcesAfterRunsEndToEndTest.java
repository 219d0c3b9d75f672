package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.goodput.core.Goodput;
import dev.goodput.core.NanoClock;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.run.internal.RealTimeScheduler;
import dev.goodput.core.run.internal.RunEngine;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.internal.Transports;
import dev.goodput.core.workload.WorkloadSpec;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A suite runs many gates in one JVM, so a finished run must leave nothing behind: not its records, not a thread,
 * not a connection. Three runs against the simulated server on loopback, every result dropped, must leave the heap,
 * the live threads and the open file descriptors where one run left them. The JDK transport once kept every run
 * alive through its clients' pooled connections (the selector thread of each client reached the last exchange of
 * each connection, and through it the run). Not timed: the state is polled, with a GC each time, within a generous
 * bound; the JDK's client ends an unreachable client's thread within 3 s of noticing it.
 */
@Isolated("counts the JVM's live threads, open descriptors and heap, which any other test running beside it moves")
class ResourcesAfterRunsEndToEndTest {

    private static final int STREAMS = 16;
    private static final int REQUESTS = 200;
    private static final Duration SETTLE_BOUND = Duration.ofSeconds(30);

    @Test
    void should_leave_heap_threads_and_descriptors_where_one_run_left_them_after_three_runs() throws Exception {
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(2), Duration.ofMillis(1))))) {
            List<WeakReference<Object>> firstRun = runAndDropTheResult(server);
            awaitSettled(firstRun, null);
            Level afterOneRun = Level.now();

            List<WeakReference<Object>> laterRuns = new ArrayList<>();
            laterRuns.addAll(runAndDropTheResult(server));
            laterRuns.addAll(runAndDropTheResult(server));
            laterRuns.addAll(firstRun);
            Level afterThreeRuns = awaitSettled(laterRuns, afterOneRun);

            SoftAssertions softly = new SoftAssertions();
            softly.assertThat(reachable(laterRuns))
                    .as("results and records of the three runs still reachable")
                    .isZero();
            softly.assertThat(afterThreeRuns.threadsNotIn(afterOneRun))
                    .as("threads alive after three runs that were not after one run")
                    .isEmpty();
            softly.assertThat(afterThreeRuns.openDescriptors())
                    .as("open file descriptors after three runs (after one run: %d)", afterOneRun.openDescriptors())
                    .isLessThanOrEqualTo(afterOneRun.openDescriptors());
            softly.assertAll();
        }
    }

    @Test
    void should_not_keep_a_finished_run_reachable_through_the_idle_connections_of_an_open_transport() throws Exception {
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                        .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(2), Duration.ofMillis(1))));
                Transport transport = Transports.named(Transports.configuredName())
                        .create(
                                ServerEndpoint.of(server.baseUrl(), server.modelName()),
                                NanoClock.system(),
                                ReadTap.NONE)) {
            // The scheduler ends with the run, as in a gate; the transport stays open with its idle connections.
            List<WeakReference<Object>> run;
            try (RealTimeScheduler own = new RealTimeScheduler(NanoClock.system())) {
                run = runAndDropTheResult(server, spec -> RunEngine.run(spec, own, transport));
            }

            awaitSettled(run, null);

            assertThat(reachable(run))
                    .as("results and records of the run still reachable while its transport keeps its connections")
                    .isZero();
        }
    }

    /** Runs a closed loop of {@value #STREAMS} streams and returns weak references to its result and records. */
    private static List<WeakReference<Object>> runAndDropTheResult(MockServer server) {
        return runAndDropTheResult(server, Goodput::run);
    }

    private static List<WeakReference<Object>> runAndDropTheResult(
            MockServer server, Function<RunSpec, RunResult> runner) {
        RunResult result = runner.apply(Goodput.newRun(ServerEndpoint.of(server.baseUrl(), server.modelName()))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(16).outputTokens(8).build())
                .load(Load.concurrency(STREAMS).requests(REQUESTS))
                .preflight(false)
                .build());
        assertThat(result.accounting().scheduled()).isEqualTo(REQUESTS);
        List<WeakReference<Object>> references = new ArrayList<>();
        references.add(new WeakReference<>(result));
        for (RequestRecord record : result.records()) {
            references.add(new WeakReference<>(record));
        }
        return references;
    }

    /**
     * Polls, with a GC each time, until every reference is cleared and (when {@code bound} is given) threads and
     * descriptors are back at most to it, or the settle bound passes; returns the last level seen.
     */
    private static Level awaitSettled(List<WeakReference<Object>> references, Level bound) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_BOUND.toNanos();
        long start = System.nanoTime();
        Level level;
        do {
            System.gc();
            Thread.sleep(200);
            level = Level.now();
            boolean settled = reachable(references) == 0
                    && (bound == null
                            || (level.threadsNotIn(bound).isEmpty()
                                    && level.openDescriptors() <= bound.openDescriptors()));
            if (settled) {
                System.out.printf("settled %.1f s after the run%n", (System.nanoTime() - start) / 1e9);
                return level;
            }
        } while (System.nanoTime() < deadline);
        return level;
    }

    private static long reachable(List<WeakReference<Object>> references) {
        return references.stream().filter(reference -> reference.get() != null).count();
    }

    /** The live threads and the open file descriptors at one moment. */
    private record Level(Set<Thread> threads, long openDescriptors) {

        static Level now() {
            UnixOperatingSystemMXBean system = (UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            return new Level(Set.copyOf(Thread.getAllStackTraces().keySet()), system.getOpenFileDescriptorCount());
        }

        /**
         * Returns the names of the threads alive now that were not then, but for the JVM's common fork-join pool:
         * shared by the whole JVM, at most a thread per core, its threads come and go on their own (60 s idle).
         */
        List<String> threadsNotIn(Level earlier) {
            return threads.stream()
                    .filter(thread -> !earlier.threads.contains(thread))
                    .filter(thread -> !thread.getName().startsWith("ForkJoinPool.commonPool-worker-"))
                    .map(Thread::getName)
                    .sorted()
                    .collect(Collectors.toList());
        }
    }
}
