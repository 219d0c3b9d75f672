package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.GOODPUT;
import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * One table of wrong values, one row each, through every way a user configures a gate: configuration
 * parameters, annotations and dataset files. Each row must fail its test with the exact message below, as an
 * {@link ExtensionConfigurationException}, before any request reaches the server: a counting socket stands in
 * for the server and must see no connection at all. (Builders have their own table in core's
 * ConfigurationValidationTest, and the first annotation mistakes are in GoodputExtensionTest.)
 */
class BadInputTableTest {

    private static ServerSocket countingServer;
    private static final AtomicInteger connections = new AtomicInteger();

    @TempDir
    Path reports;

    @BeforeAll
    static void startCountingServer() throws IOException {
        countingServer = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (true) {
                try (Socket ignored = countingServer.accept()) {
                    connections.incrementAndGet();
                } catch (IOException closed) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterAll
    static void stopCountingServer() throws IOException {
        countingServer.close();
    }

    @GoodputTest
    static class Gates {
        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = TTFT, percentile = 50, atMost = 1000)
        void valid() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10, totalTimeoutSeconds = -1)
        void negativeTimeout() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10, drainSeconds = -2)
        void negativeDrain() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(concurrency = 2, requests = 10, durationSeconds = -5)
        void negativeDuration() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10, retries = 11)
        void tooManyRetries() {}

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 0)
        @LoadProfile(rate = 4, requests = 10)
        void noInputTokens() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = TTFT, percentile = 99, atMost = -5)
        void negativeBound() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = GOODPUT, atLeast = -1)
        void goodputWithoutBound() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = dev.goodput.core.slo.Metric.ERROR_RATE, atMost = 2)
        void ratioAboveOne() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, arrivals = LoadProfile.Arrivals.CONSTANT, seed = 7, requests = 10)
        void seedOnConstantArrivals() {}

        @org.junit.jupiter.api.Test
        @TrafficClass(name = "chat", weight = 70)
        @TrafficClass(name = "rag", weight = 30, workload = @Workload(inputTokens = 2000))
        @LoadProfile(rate = 4, requests = 10)
        @Slo(trafficClass = "batch", metric = TTFT, percentile = 50, atMost = 1000)
        void sloOnAnUnknownClass() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(trafficClass = "chat", metric = TTFT, percentile = 50, atMost = 1000)
        void sloOnAClassWithoutAMix() {}

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 100)
        @TrafficClass(name = "chat", weight = 70)
        @LoadProfile(rate = 4, requests = 10)
        void workloadBesideTrafficClasses() {}

        @org.junit.jupiter.api.Test
        @TrafficClass(name = "chat", weight = 1, headers = "x-api-key secret-value")
        @LoadProfile(rate = 4, requests = 10)
        void headerWithoutAColon() {}

        @org.junit.jupiter.api.Test
        @TrafficClass(name = "chat", weight = -1)
        @LoadProfile(rate = 4, requests = 10)
        void negativeClassWeight() {}

        @org.junit.jupiter.api.Test
        @TrafficClass(name = "chat", weight = 1, workload = @Workload(outputTokens = 0))
        @LoadProfile(rate = 4, requests = 10)
        void badClassWorkload() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, arrivals = LoadProfile.Arrivals.GAMMA, requests = 10)
        void gammaWithoutBurstiness() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, thinkTimeMillis = 100, requests = 10)
        void thinkTimeOnOpenLoop() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(concurrency = 4, maxConcurrency = 2, requests = 10)
        void maxConcurrencyOnClosedLoop() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10, warmupRequests = 10)
        void warmupSwallowsTheRun() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, durationSeconds = Double.NaN)
        void durationNotANumber() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @Slo(metric = GOODPUT, atLeast = 1, unit = java.util.concurrent.TimeUnit.SECONDS)
        void unitOnARate() {}

        @org.junit.jupiter.api.Test
        @LoadProfile(rate = 4, requests = 10)
        @LoadSweep(rates = {1, 2})
        void profileBesideSweep() {}

        @org.junit.jupiter.api.Test
        @Workload(dataset = "no/such/dataset.jsonl")
        @LoadProfile(rate = 4, requests = 10)
        void missingDataset() {}

        @org.junit.jupiter.api.Test
        @Workload(trace = "no/such/trace.jsonl")
        @LoadProfile(rate = 4, requests = 10)
        void missingTrace() {}
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                row(
                        "valid",
                        Map.of("goodput.slo.inconclusive", "maybe"),
                        "configuration parameter" + " goodput.slo.inconclusive = 'maybe' must be 'fail' or 'warn'"),
                row(
                        "valid",
                        Map.of("goodput.preflight", "maybe"),
                        "configuration parameter goodput.preflight = 'maybe' must be 'on' or 'off'"),
                row(
                        "valid",
                        Map.of("goodput.progress", "loud"),
                        "configuration parameter goodput.progress = 'loud'" + " must be 'auto', 'on' or 'off'"),
                row(
                        "valid",
                        Map.of("goodput.load.scale", "-1"),
                        "configuration parameter goodput.load.scale = '-1'"
                                + " is not a number above 0 (for example 0.2 for a quick run, 5 for a long one)"),
                row(
                        "valid",
                        Map.of("goodput.client.untrustworthy", "ignore"),
                        "configuration parameter"
                                + " goodput.client.untrustworthy = 'ignore' must be 'fail' or 'warn'"),
                row(
                        "valid",
                        Map.of("goodput.client.send-lag-limit-ms", "0"),
                        "configuration parameter"
                                + " goodput.client.send-lag-limit-ms = '0' is not a number of milliseconds above 0 (the"
                                + " default is 50)"),
                row(
                        "valid",
                        Map.of("goodput.client.transport", "okhttp"),
                        "configuration parameter goodput.client.transport = 'okhttp' must name a transport on the"
                                + " class path: one of jdk (the setting goodput.client.transport)"),
                row(
                        "valid",
                        Map.of("goodput.client.transport", "netty"),
                        "configuration parameter goodput.client.transport = 'netty' needs the dependency"
                                + " dev.goodput:goodput-transport-netty on the class path: add it next to goodput-core"
                                + " or goodput-junit (the setting goodput.client.transport)"),
                row(
                        "valid",
                        Map.of("goodput.server.model", " "),
                        "configuration parameter goodput.server.url = '"
                                + "{url}' needs goodput.server.model to name the model to request"),
                row(
                        "valid",
                        Map.of("goodput.server.url", "localhost:8000"),
                        "configuration parameter goodput.server.url: baseUrl = 'localhost:8000' must be an absolute http or https URL"),
                row(
                        "negativeTimeout",
                        Map.of(),
                        "@LoadProfile on Gates.negativeTimeout(): totalTimeoutSeconds = -1.0 must be positive"),
                row(
                        "negativeDrain",
                        Map.of(),
                        "@LoadProfile on Gates.negativeDrain(): drainSeconds = -2.0 must not be negative"),
                row(
                        "negativeDuration",
                        Map.of(),
                        "@LoadProfile on Gates.negativeDuration(): durationSeconds = -5.0 must be positive"),
                row(
                        "tooManyRetries",
                        Map.of(),
                        "@LoadProfile on Gates.tooManyRetries(): retries = 11 must be between 0 and 10"),
                row(
                        "noInputTokens",
                        Map.of(),
                        "@Workload on Gates.noInputTokens(): inputTokens = 0 must be at least 1"),
                row(
                        "negativeBound",
                        Map.of(),
                        "@Slo(metric = TTFT) on Gates.negativeBound(): atMost = -5.0 must be a finite value of at least 0"),
                row(
                        "goodputWithoutBound",
                        Map.of(),
                        "@Slo(metric = GOODPUT) on Gates.goodputWithoutBound(): atLeast = -1.0 must be a finite value of at least 0"),
                row(
                        "missingDataset",
                        Map.of(),
                        "@Workload on Gates.missingDataset(): no/such/dataset.jsonl: no such file"),
                row("missingTrace", Map.of(), "@Workload on Gates.missingTrace(): no/such/trace.jsonl: no such file"),
                row(
                        "ratioAboveOne",
                        Map.of(),
                        "@Slo(metric = ERROR_RATE) on Gates.ratioAboveOne(): atMost = 2.0 must be a ratio between 0 and 1 (ERROR_RATE is a ratio)"),
                row(
                        "seedOnConstantArrivals",
                        Map.of(),
                        "@LoadProfile on Gates.seedOnConstantArrivals(): seed applies to random arrivals (poisson or gamma), not to constant 4.0 req/s"),
                row(
                        "gammaWithoutBurstiness",
                        Map.of(),
                        "@LoadProfile on Gates.gammaWithoutBurstiness(): burstiness = 0.0 must be a finite value above 0"),
                row(
                        "thinkTimeOnOpenLoop",
                        Map.of(),
                        "@LoadProfile on Gates.thinkTimeOnOpenLoop(): thinkTimeMillis applies to a closed loop (concurrency), not to poisson 4.0 req/s"),
                row(
                        "maxConcurrencyOnClosedLoop",
                        Map.of(),
                        "@LoadProfile on Gates.maxConcurrencyOnClosedLoop(): maxConcurrency applies to an open loop; a closed loop's concurrency is its user count"),
                row(
                        "warmupSwallowsTheRun",
                        Map.of(),
                        "@LoadProfile on Gates.warmupSwallowsTheRun(): warmupRequests (10) + cooldownRequests (0) leave no measured request of requests (10)"),
                row(
                        "unitOnARate",
                        Map.of(),
                        "@Slo(metric = GOODPUT) on Gates.unitOnARate(): unit = SECONDS applies to a latency bound;"
                                + " GOODPUT is not a latency, so remove unit"),
                row(
                        "profileBesideSweep",
                        Map.of(),
                        "@LoadProfile on Gates.profileBesideSweep() would be ignored: @LoadSweep runs loads of its own"
                                + " at each rate; remove one of them"),
                row(
                        "sloOnAnUnknownClass",
                        Map.of(),
                        "@Slo on Gates.sloOnAnUnknownClass(): trafficClass = batch is not a class of the workload mix"
                                + " (objective p50 TTFT of batch ≤ 1000.00 ms); its classes are [chat, rag]"),
                row(
                        "sloOnAClassWithoutAMix",
                        Map.of(),
                        "@Slo on Gates.sloOnAClassWithoutAMix(): objective p50 TTFT of chat ≤ 1000.00 ms judges the"
                                + " workload class chat, but the workload has no classes (use a WorkloadMix): synthetic"),
                row(
                        "workloadBesideTrafficClasses",
                        Map.of(),
                        "@Workload and @TrafficClass on Gates.workloadBesideTrafficClasses() both say what to send:"
                                + " give each class its workload as @TrafficClass(workload = @Workload(...)) and remove"
                                + " @Workload"),
                row(
                        "headerWithoutAColon",
                        Map.of(),
                        "@TrafficClass(name = \"chat\") on Gates.headerWithoutAColon(): headers[0] must be \"Name:"
                                + " value\" (found no name before a ':')"),
                row(
                        "negativeClassWeight",
                        Map.of(),
                        "@TrafficClass(name = \"chat\") on Gates.negativeClassWeight(): weight of workload class chat"
                                + " = -1.0 must be a finite value above 0"),
                row(
                        "badClassWorkload",
                        Map.of(),
                        "@TrafficClass(name = \"chat\") workload on Gates.badClassWorkload(): outputTokens = 0 must"
                                + " be at least 1"),
                row(
                        "valid",
                        Map.of("goodput.shard.count", "3"),
                        "configuration parameter goodput.shard.count = '3' needs goodput.shard.index: a shard is one of a"
                                + " number of them"),
                row(
                        "valid",
                        Map.of("goodput.shard.index", "one", "goodput.shard.count", "3"),
                        "configuration parameter goodput.shard.index = 'one' is not a whole number"),
                row(
                        "valid",
                        Map.of("goodput.shard.index", "3", "goodput.shard.count", "3"),
                        "configuration parameters goodput.shard.index = '3' and goodput.shard.count = '3': shard index"
                                + " = 3 must be from 0 to 2 for a shard count of 3"),
                row(
                        "valid",
                        Map.of("goodput.shard.index", "1", "goodput.shard.count", "2"),
                        "configuration parameters goodput.shard.index and goodput.shard.count make this shard 1 of 2,"
                                + " which needs goodput.shard.barrier (shard 0's host:port) or goodput.shard.start-at (an"
                                + " instant) so that all shards start their schedule together"),
                row(
                        "valid",
                        Map.of(
                                "goodput.shard.index", "1",
                                "goodput.shard.count", "2",
                                "goodput.shard.start-at", "tomorrow"),
                        "configuration parameter goodput.shard.start-at = 'tomorrow' is not an ISO-8601 instant such as"
                                + " 2026-11-25T06:00:00Z"),
                row(
                        "valid",
                        Map.of(
                                "goodput.shard.index", "1",
                                "goodput.shard.count", "2",
                                "goodput.shard.barrier", "gen-0:7311",
                                "goodput.shard.start-at", "2026-11-25T06:00:00Z"),
                        "configuration parameters goodput.shard.barrier = 'gen-0:7311' and goodput.shard.start-at ="
                                + " '2026-11-25T06:00:00Z' both say when to start; set one"),
                row(
                        "valid",
                        Map.of(
                                "goodput.shard.index", "1",
                                "goodput.shard.count", "2",
                                "goodput.shard.barrier", "gen-0:port"),
                        "configuration parameter goodput.shard.barrier = 'gen-0:port' must be host:port with a port"
                                + " between 1 and 65535, e.g. gates-shard-0.gates:7311 (shard 0's host:port)"),
                row(
                        "valid",
                        Map.of(
                                "goodput.shard.index", "0",
                                "goodput.shard.count", "1",
                                "goodput.trials.scale", "3"),
                        "Gates.valid() cannot run as shard 0 of 1 with 3 trials (goodput.trials.scale): sharding splits"
                                + " one run; run the shards again for another"),
                row(
                        "valid",
                        Map.of("goodput.shard.output", "/results"),
                        "configuration parameter goodput.shard.output = '/results' applies to shards only; set"
                                + " goodput.shard.index and goodput.shard.count too, or remove it"),
                row(
                        "valid",
                        Map.of("goodput.shard.merge", "/results", "goodput.shard.count", "2"),
                        "configuration parameter goodput.shard.merge = '/results' merges shards' outputs and sends no"
                                + " load, so goodput.shard.count = '2' has nothing to apply to; run the shards and the"
                                + " merge as separate steps"),
                row(
                        "durationNotANumber",
                        Map.of(),
                        "@LoadProfile on Gates.durationNotANumber(): durationSeconds = NaN must be a finite number of seconds"));
    }

    private static Arguments row(String method, Map<String, String> parameters, String message) {
        return Arguments.of(method, parameters, message);
    }

    @ParameterizedTest(name = "{0} with {1}")
    @MethodSource("rows")
    void should_fail_with_the_exact_message_before_any_request(
            String method, Map<String, String> parameters, String message) {
        String url = "http://127.0.0.1:" + countingServer.getLocalPort();
        Map<String, String> configuration = new HashMap<>(Map.of(
                "goodput.server.url",
                url,
                "goodput.server.model",
                "counting",
                "goodput.report.dir",
                reports.toString(),
                "goodput.progress",
                "off"));
        configuration.putAll(parameters);
        var request = EngineTestKit.engine("junit-jupiter");
        configuration.forEach(request::configurationParameter);
        Events events =
                request.selectors(selectMethod(Gates.class, method)).execute().testEvents();

        events.assertStatistics(stats -> stats.started(1).failed(1));
        Throwable failure = events.failed()
                .list()
                .get(0)
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
        assertThat(failure.getMessage()).isEqualTo(message.replace("{url}", url));
        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class);
        assertThat(connections).as("connections the server saw").hasValue(0);
    }
}
