package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Every trial of a gate meets the server in the same state: the simulated server is reset before each, so a trial
 * never finds the prompts of the one before in its prefix cache.
 */
@DisplayName("Trials start from equal server state")
class TrialServerStateTest {

    @TempDir
    Path reports;

    /** The simulated server behind the URL fixtures, reached only over HTTP as a real server would be. */
    private static MockServer remote;

    @AfterEach
    void stopServers() {
        for (MockServer server : new MockServer[] {PrefixHeavyTrials.server, remote}) {
            if (server != null) {
                server.close();
            }
        }
        PrefixHeavyTrials.server = null;
        remote = null;
        UrlServerTrials.endpoint = null;
        UrlServerWithoutReset.endpoint = null;
        SimulatedServerByUrl.endpoint = null;
    }

    private static MockServer startPrefixCachingServer() {
        return MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.preset(SimulatedServer.DEFAULT_PRESET)));
    }

    /** The same trials against a server given by its URL only: Goodput can reset it through its reset endpoint. */
    @GoodputTest
    static class UrlServerTrials {
        @ServerUnderTest
        static ServerEndpoint endpoint;

        @Test
        @Workload(inputTokens = 512, outputTokens = 4)
        @LoadProfile(concurrency = 1, requests = 24, warmupRequests = 4)
        @Slo(metric = TTFT, percentile = 50, atMost = 5000)
        @Trials(value = 2, resetPath = "/debug/reset")
        void reset() {}

        @Test
        @LoadProfile(concurrency = 1, requests = 4)
        @Trials(value = 2, resetPath = "/no_such_reset")
        void unknownPath() {}

        @Test
        @LoadProfile(concurrency = 1, requests = 4)
        @Trials(value = 2, resetPath = "flush_cache")
        void notAPath() {}
    }

    private Events execute(Class<?> testCase, Map<String, String> parameters) {
        var request = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter(
                        "goodput.baseline.dir", reports.resolve("baselines").toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn");
        parameters.forEach(request::configurationParameter);
        return request.selectors(selectClass(testCase)).execute().testEvents();
    }

    /**
     * Two trials of 512-token prompts against a batching simulated server with prefix caching. The prompts are
     * cold within a trial (each starts with its position), and the same in every trial.
     */
    @GoodputTest
    static class PrefixHeavyTrials {
        @ServerUnderTest
        static MockServer server;

        @Test
        @Workload(inputTokens = 512, outputTokens = 4)
        @LoadProfile(concurrency = 1, requests = 24, warmupRequests = 4)
        @Slo(metric = TTFT, percentile = 50, atMost = 5000)
        @Trials(2)
        void gate() {}
    }

    private double prefixCacheHitRate(String gate, int trial) throws IOException {
        JsonNode rate = new ObjectMapper()
                .readTree(reports.resolve(gate + "/trial-" + trial + "/result.json")
                        .toFile())
                .at("/server_metrics/summary/prefix_cache_hit_rate");
        assertThat(rate.isNumber())
                .as(gate + " trial " + trial + "'s prefix-cache hit rate: " + rate)
                .isTrue();
        return rate.asDouble();
    }

    /** The simulated server as GoodputMockServerContainer describes it: by URL, with its name in the metadata. */
    @GoodputTest
    static class SimulatedServerByUrl {
        @ServerUnderTest
        static ServerEndpoint endpoint;

        @Test
        @Workload(inputTokens = 512, outputTokens = 4)
        @LoadProfile(concurrency = 1, requests = 24, warmupRequests = 4)
        @Slo(metric = TTFT, percentile = 50, atMost = 5000)
        @Trials(2)
        void gate() {}
    }

    /** What a server that cannot be reset does to trials. */
    @GoodputTest
    static class UrlServerWithoutReset {
        @ServerUnderTest
        static ServerEndpoint endpoint;

        @Test
        @Workload(inputTokens = 512, outputTokens = 4)
        @LoadProfile(concurrency = 1, requests = 24, warmupRequests = 4)
        @Slo(metric = TTFT, percentile = 50, atMost = 5000)
        @Trials(2)
        void gate() {}
    }

    @Test
    @DisplayName("the second trial meets the simulated server's caches and counters as the first did")
    void each_trial_meets_a_reset_simulated_server() throws IOException {
        PrefixHeavyTrials.server = startPrefixCachingServer();

        assertThat(GoodputExtensionTest.failureMessages(execute(PrefixHeavyTrials.class, Map.of())))
                .isEmpty();

        // The server's own counters, scraped during each trial: no trial finds another's prompts cached.
        assertThat(prefixCacheHitRate("PrefixHeavyTrials/gate", 1)).isZero();
        assertThat(prefixCacheHitRate("PrefixHeavyTrials/gate", 2)).isZero();
        // The ground truth since the last reset: the second trial's preflight and its 24 requests, nothing older.
        assertThat(PrefixHeavyTrials.server.groundTruth()).hasSize(1 + 24);
    }

    @Test
    @DisplayName("without a reset, a server known by its URL serves trial 2's prompts from trial 1's cache")
    void a_url_server_without_a_reset_path_keeps_its_cache_between_trials() throws IOException {
        remote = startPrefixCachingServer();
        UrlServerWithoutReset.endpoint = ServerEndpoint.of(remote.baseUrl(), remote.modelName());

        assertThat(GoodputExtensionTest.failureMessages(execute(UrlServerWithoutReset.class, Map.of())))
                .isEmpty();

        assertThat(prefixCacheHitRate("UrlServerWithoutReset/gate", 1)).isZero();
        assertThat(prefixCacheHitRate("UrlServerWithoutReset/gate", 2)).isGreaterThan(0.9);
    }

    @Test
    @DisplayName("a server known by its URL is reset through @Trials(resetPath), and a reset that fails fails the gate")
    void a_url_server_is_reset_through_its_reset_path() throws IOException {
        remote = startPrefixCachingServer();
        UrlServerTrials.endpoint = ServerEndpoint.of(remote.baseUrl(), remote.modelName());

        Map<String, String> failures = GoodputExtensionTest.failureMessages(execute(UrlServerTrials.class, Map.of()));

        assertThat(prefixCacheHitRate("UrlServerTrials/reset", 1)).isZero();
        assertThat(prefixCacheHitRate("UrlServerTrials/reset", 2)).isZero();
        String base = remote.baseUrl();
        assertThat(failures)
                .containsOnlyKeys("unknownPath", "notAPath")
                .containsEntry(
                        "unknownPath",
                        "UrlServerTrials.unknownPath(): POST " + base + "/no_such_reset (@Trials resetPath) before"
                                + " run 1 answered 404: {\"error\":{\"message\":\"Not Found: /no_such_reset\","
                                + "\"type\":\"NotFoundError\",\"param\":null,\"code\":404}}; the trials would not"
                                + " start from equal server state")
                .containsEntry(
                        "notAPath",
                        "@Trials on UrlServerTrials.notAPath(): resetPath = \"flush_cache\"; it must be a path on the"
                                + " server under test starting with /, for example \"/reset_prefix_cache\"");
    }

    @Test
    @DisplayName("the simulated server in a container is reset through its reset endpoint without a resetPath")
    void a_simulated_server_known_by_its_url_is_reset_through_its_endpoint() throws IOException {
        remote = startPrefixCachingServer();
        SimulatedServerByUrl.endpoint = ServerEndpoint.of(remote.baseUrl(), remote.modelName())
                .withMetadata(Map.of("server", "goodput-mock-server"));

        assertThat(GoodputExtensionTest.failureMessages(execute(SimulatedServerByUrl.class, Map.of())))
                .isEmpty();

        assertThat(prefixCacheHitRate("SimulatedServerByUrl/gate", 1)).isZero();
        assertThat(prefixCacheHitRate("SimulatedServerByUrl/gate", 2)).isZero();
        assertThat(remote.groundTruth()).hasSize(1 + 24);
    }
}
