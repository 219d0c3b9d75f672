package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Gates run as shards and as their merge, through JUnit's own engine: the same test class, told by configuration
 * parameters which share to send (two shards in two threads, meeting at a barrier on loopback), then told to merge.
 * The merge judges like any gate; a shard is not judged.
 */
class ShardedGateTest {

    @TempDir
    Path work;

    @GoodputTest
    @SimulatedServer
    static class TwoGates {
        static final Map<String, List<RunResult>> seen = new ConcurrentHashMap<>();

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 100, outputTokens = 12, seed = 3)
        @LoadProfile(rate = 24, requests = 48, warmupRequests = 4)
        @Slo(metric = TTFT, percentile = 90, atMost = 2000)
        void holds(RunResult result) {
            seen.computeIfAbsent("holds", k -> new ArrayList<>()).add(result);
        }

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 100, outputTokens = 12, seed = 3)
        @LoadProfile(rate = 24, requests = 48, warmupRequests = 4)
        @Slo(metric = TTFT, percentile = 50, atMost = 0.001)
        void misses(RunResult result) {
            seen.computeIfAbsent("misses", k -> new ArrayList<>()).add(result);
        }
    }

    private Events run(Map<String, String> parameters, org.junit.platform.engine.DiscoverySelector selector) {
        var request = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn");
        parameters.forEach(request::configurationParameter);
        return request.selectors(selector).execute().testEvents();
    }

    private static String failureMessage(Events events) {
        return events.failed()
                .list()
                .get(0)
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow()
                .getMessage();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void two_shards_send_their_shares_and_the_merge_judges_the_whole() throws Exception {
        TwoGates.seen.clear();
        Path shards = work.resolve("shards");
        try (MockServer server = MockServer.start(MockServerConfig.defaults())) {
            String barrier = "127.0.0.1:" + freePort();
            ExecutorService threads = Executors.newFixedThreadPool(2);
            List<Future<Events>> runs = new ArrayList<>();
            for (int index = 0; index < 2; index++) {
                Map<String, String> parameters = new HashMap<>(Map.of(
                        "goodput.server.url", server.baseUrl(),
                        "goodput.server.model", server.modelName(),
                        "goodput.report.dir",
                                work.resolve("shard-reports-" + index).toString(),
                        "goodput.shard.index", Integer.toString(index),
                        "goodput.shard.count", "2",
                        "goodput.shard.output", shards.toString(),
                        "goodput.shard.barrier", barrier));
                runs.add(threads.submit(() -> run(parameters, selectClass(TwoGates.class))));
            }
            try {
                for (Future<Events> shard : runs) {
                    // Not judged: the share that misses its objective passes as a shard.
                    shard.get(90, TimeUnit.SECONDS)
                            .assertStatistics(stats -> stats.started(2).succeeded(2));
                }
            } finally {
                threads.shutdownNow();
            }
        }
        assertThat(TwoGates.seen.get("holds"))
                .hasSize(2)
                .allSatisfy(share -> assertThat(share.records()).hasSize(24));
        assertThat(shards.resolve("TwoGates/holds/shard-1-of-2/shard.json")).exists();

        TwoGates.seen.clear();
        Path history = work.resolve("history.jsonl");
        Events merge = run(
                Map.of(
                        "goodput.shard.merge", shards.toString(),
                        "goodput.report.dir", work.resolve("merged").toString(),
                        "goodput.history.file", history.toString()),
                selectClass(TwoGates.class));

        merge.assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
        RunResult merged = TwoGates.seen.get("holds").get(0);
        assertThat(merged.records())
                .extracting(RequestRecord::index)
                .containsExactlyElementsOf(LongStream.range(0, 48).boxed().toList());
        assertThat(merged.accounting().measured()).isEqualTo(44);
        assertThat(failureMessage(merge))
                .startsWith("TwoGates.misses(): 1 of 1 objectives not met\n  p50 TTFT: measured");
        assertThat(Files.readString(work.resolve("merged/TwoGates/holds/summary.txt")))
                .contains("48 scheduled, 48 succeeded");
        // The merge goes the way of any run: one history entry per gate.
        assertThat(Files.readAllLines(history)).hasSize(2);
    }

    @Test
    void a_shard_of_a_gate_on_its_own_simulated_server_is_refused() {
        Events events = run(
                Map.of(
                        "goodput.report.dir", work.toString(),
                        "goodput.shard.index", "0",
                        "goodput.shard.count", "2",
                        "goodput.shard.start-at", "2026-11-25T06:00:00Z"),
                selectMethod(TwoGates.class, "holds", RunResult.class.getName()));

        events.assertStatistics(stats -> stats.failed(1));
        assertThat(failureMessage(events))
                .startsWith("TwoGates.holds() cannot run as shard 0 of 2 against @SimulatedServer on TwoGates (preset")
                .endsWith("): every shard would start its own simulated server, so the merge would pool runs against"
                        + " different servers; set goodput.server.url (and goodput.server.model) to the one server all"
                        + " shards load");
    }

    @Test
    void a_merge_without_outputs_says_where_it_looked() {
        Events events = run(
                Map.of(
                        "goodput.report.dir",
                        work.toString(),
                        "goodput.shard.merge",
                        work.resolve("none").toString()),
                selectMethod(TwoGates.class, "holds", RunResult.class.getName()));

        events.assertStatistics(stats -> stats.failed(1));
        assertThat(failureMessage(events))
                .isEqualTo("no shard outputs: " + work.resolve("none/TwoGates/holds") + " is not a directory");
    }
}
