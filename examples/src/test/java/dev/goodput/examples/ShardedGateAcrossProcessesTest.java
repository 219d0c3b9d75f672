package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The sharded run proved on one machine: three JVMs each run {@link ShardedChatGateExample} as one shard (JUnit's
 * launcher, configuration parameters only, as a Kubernetes pod would), meet at shard 0's barrier on loopback and
 * load one simulated server; the merge judges the gate; and the merged figures are those of one generator sending
 * the same schedule to the same server, within measurement noise. Merging twice gives the same figures. Bounded:
 * the example's load at a quarter scale ({@code goodput.load.scale=0.25}: 240 requests at 20/s per run), each JVM given
 * two minutes.
 */
class ShardedGateAcrossProcessesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GATE =
            "ShardedChatGateExample/chat_answers_start_fast_under_load_from_several_generators";
    private static final int SHARDS = 3;
    // This test checks the merge against a single generator, not the server: three shard JVMs, the single
    // generator's and the server share two cores, and one run here (load average 4-7) held 10 effective samples of
    // 468 for the merged p90 TTFT, so its verdict may be INCONCLUSIVE; it warns here. A VIOLATED one still fails,
    // and ShardedChatGateExample itself, run alone, fails on INCONCLUSIVE as every example gate does.
    private static final String INCONCLUSIVE = "warn";
    // A quarter of the example's 960 requests: the medians compared below need far fewer, and the build pays for
    // every one twice (the shards, then the single generator).
    private static final String SCALE = "0.25";

    @TempDir
    Path work;

    @Test
    void three_shard_processes_merge_into_the_single_generators_figures() throws Exception {
        try (MockServer server = MockServer.start(MockServerConfig.defaults())) {
            Map<String, String> target = Map.of(
                    "goodput.server.url",
                    server.baseUrl(),
                    "goodput.server.model",
                    server.modelName(),
                    "goodput.progress",
                    "off",
                    "goodput.slo.inconclusive",
                    INCONCLUSIVE,
                    "goodput.load.scale",
                    SCALE);
            String barrier = "127.0.0.1:" + freePort();
            List<Process> shards = new ArrayList<>();
            for (int index = 0; index < SHARDS; index++) {
                Map<String, String> parameters = new HashMap<>(target);
                parameters.put("goodput.shard.index", Integer.toString(index));
                parameters.put("goodput.shard.count", Integer.toString(SHARDS));
                parameters.put("goodput.shard.barrier", barrier);
                parameters.put("goodput.shard.output", work.resolve("shards").toString());
                parameters.put(
                        "goodput.report.dir", work.resolve("shard-" + index).toString());
                shards.add(launch(parameters, work.resolve("shard-" + index + ".log")));
            }
            for (int index = 0; index < SHARDS; index++) {
                Process shard = shards.get(index);
                Path log = work.resolve("shard-" + index + ".log");
                assertThat(shard.waitFor(120, TimeUnit.SECONDS))
                        .as("shard %d ended", index)
                        .isTrue();
                assertThat(shard.exitValue())
                        .as("shard %d; its output:%n%s", index, read(log))
                        .isZero();
                assertThat(read(log))
                        .contains("SHARD: ShardedChatGateExample.chat_answers_start_fast_under_load_from"
                                + "_several_generators() as shard " + index + " of 3 sent 80 requests");
            }

            JsonNode merged = merge("merged");
            JsonNode again = merge("merged-again");
            // The single generator in a JVM of its own too, so both sides pay the same JIT warm-up.
            Map<String, String> whole = new HashMap<>(target);
            whole.put("goodput.report.dir", work.resolve("single").toString());
            Process singleProcess = launch(whole, work.resolve("single.log"));
            assertThat(singleProcess.waitFor(120, TimeUnit.SECONDS))
                    .as("the single generator ended")
                    .isTrue();
            assertThat(singleProcess.exitValue())
                    .as("the single generator; its output:%n%s", read(work.resolve("single.log")))
                    .isZero();
            JsonNode single = JSON.readTree(
                    work.resolve("single").resolve(GATE).resolve("result.json").toFile());

            assertThat(again.get("metrics")).isEqualTo(merged.get("metrics"));
            assertThat(again.get("verdicts")).isEqualTo(merged.get("verdicts"));
            assertThat(merged.get("accounting")).isEqualTo(single.get("accounting"));
            assertThat(merged.at("/load/offered_rate").asDouble())
                    .isEqualTo(single.at("/load/offered_rate").asDouble());
            printSideBySide(single, merged);
            assertThat(merged.at("/load/achieved_rate").asDouble())
                    .isCloseTo(single.at("/load/achieved_rate").asDouble(), within(0.1 * 20));
            assertThat(merged.at("/metrics/tpot_ms/p50").asDouble())
                    .isCloseTo(
                            single.at("/metrics/tpot_ms/p50").asDouble(),
                            within(0.15 * single.at("/metrics/tpot_ms/p50").asDouble()));
            // TTFT and send lag rise when three shard JVMs and the server share two cores (+19-28 % at the median
            // here); per-request latencies are differences on one shard's clock, so the merge cannot move them, and
            // ShardMergeTest pins the merge exactly. This bound only catches a gross error.
            assertThat(merged.at("/metrics/ttft_ms/p50").asDouble())
                    .isCloseTo(
                            single.at("/metrics/ttft_ms/p50").asDouble(),
                            within(1.0 * single.at("/metrics/ttft_ms/p50").asDouble()));
            assertThat(merged.at("/metrics/e2el_ms/p50").asDouble())
                    .isCloseTo(
                            single.at("/metrics/e2el_ms/p50").asDouble(),
                            within(0.15 * single.at("/metrics/e2el_ms/p50").asDouble()));
            assertThat(merged.at("/metrics/itl_ms/count").asLong())
                    .isEqualTo(single.at("/metrics/itl_ms/count").asLong());
        }
    }

    /** Merges the shards' outputs with JUnit's launcher in this JVM and returns the merged result.json. */
    private JsonNode merge(String name) throws IOException {
        return run(
                Map.of(
                        "goodput.shard.merge",
                        work.resolve("shards").toString(),
                        "goodput.progress",
                        "off",
                        "goodput.slo.inconclusive",
                        INCONCLUSIVE,
                        "goodput.load.scale",
                        SCALE),
                name);
    }

    private JsonNode run(Map<String, String> parameters, String name) throws IOException {
        Map<String, String> all = new HashMap<>(parameters);
        all.put("goodput.report.dir", work.resolve(name).toString());
        TestExecutionSummary summary = GateLauncher.run(ShardedChatGateExample.class, all);
        assertThat(summary.getTestsSucceededCount())
                .as("%s passed: %s", name, summary.getFailures())
                .isEqualTo(1);
        return JSON.readTree(
                work.resolve(name).resolve(GATE).resolve("result.json").toFile());
    }

    private static Process launch(Map<String, String> parameters, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                GateLauncher.class.getName(),
                ShardedChatGateExample.class.getName()));
        parameters.forEach((key, value) -> command.add(key + "=" + value));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static void printSideBySide(JsonNode single, JsonNode merged) {
        System.out.println("figure              single generator   3 shards merged");
        for (String pointer : List.of(
                "/load/offered_rate",
                "/load/achieved_rate",
                "/metrics/ttft_ms/p50",
                "/metrics/ttft_ms/p90",
                "/metrics/ttft_from_send_ms/p50",
                "/metrics/queue_time_ms/p50",
                "/metrics/queue_time_ms/p99",
                "/metrics/tpot_ms/p50",
                "/metrics/tpot_ms/p90",
                "/metrics/itl_ms/p50",
                "/metrics/itl_ms/p99",
                "/metrics/e2el_ms/p50",
                "/metrics/e2el_ms/p90")) {
            System.out.println(String.format(
                    Locale.ROOT,
                    "%-20s %16.2f %16.2f",
                    pointer,
                    single.at(pointer).asDouble(),
                    merged.at(pointer).asDouble()));
        }
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "(no output)";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
