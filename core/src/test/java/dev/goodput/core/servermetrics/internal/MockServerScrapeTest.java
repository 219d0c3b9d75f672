package dev.goodput.core.servermetrics.internal;

import static dev.goodput.core.servermetrics.internal.ServerSignal.GENERATION_TOKENS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.GPU_ENERGY;
import static dev.goodput.core.servermetrics.internal.ServerSignal.GPU_POWER;
import static dev.goodput.core.servermetrics.internal.ServerSignal.GPU_UTILIZATION;
import static dev.goodput.core.servermetrics.internal.ServerSignal.KV_CACHE_USAGE;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PREEMPTIONS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PREFIX_CACHE_HITS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PREFIX_CACHE_QUERIES;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PROMPT_TOKENS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.RUNNING_REQUESTS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.SERVER_E2E;
import static dev.goodput.core.servermetrics.internal.ServerSignal.SERVER_ITL;
import static dev.goodput.core.servermetrics.internal.ServerSignal.SERVER_QUEUE_TIME;
import static dev.goodput.core.servermetrics.internal.ServerSignal.SERVER_TTFT;
import static dev.goodput.core.servermetrics.internal.ServerSignal.WAITING_REQUESTS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.SimulatedMetrics;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The simulated server's {@code /metrics}, parsed and reduced as Goodput reads a real server's. */
class MockServerScrapeTest {

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static MockServer start(SimulatedMetrics simulated) {
        return MockServer.start(MockServerConfig.builder()
                .modelName("m")
                .performanceModel(PerformanceModel.preset("tiny-test"))
                .simulatedMetrics(simulated)
                .build());
    }

    private static ScrapeReading scrape(MockServer server) throws Exception {
        String body = CLIENT.send(
                        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        return ScrapeReading.of(Exposition.parse(body, SecretRedaction.none()));
    }

    private static void complete(MockServer server, int words) throws Exception {
        String prompt = "a ".repeat(words).trim();
        HttpResponse<String> response = CLIENT.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"" + prompt
                                + "\",\"max_tokens\":10,\"ignore_eos\":true,\"stream\":true}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void should_read_every_signal_the_mock_exports_and_difference_two_scrapes() throws Exception {
        try (MockServer server = start(SimulatedMetrics.defaults())) {
            complete(server, 40);
            // The latency histograms take a request when its ground truth is logged, just after its last write.
            server.awaitGroundTruth(1, Duration.ofSeconds(10));
            ScrapeReading before = scrape(server);
            complete(server, 40);
            complete(server, 40);
            server.awaitGroundTruth(3, Duration.ofSeconds(10));
            ScrapeReading after = scrape(server);

            assertThat(after.values())
                    .containsKeys(
                            RUNNING_REQUESTS,
                            WAITING_REQUESTS,
                            KV_CACHE_USAGE,
                            PREEMPTIONS,
                            PREFIX_CACHE_QUERIES,
                            PREFIX_CACHE_HITS,
                            GPU_UTILIZATION,
                            GPU_POWER,
                            GPU_ENERGY);
            assertThat(after.histograms()).containsOnlyKeys(SERVER_TTFT, SERVER_ITL, SERVER_E2E, SERVER_QUEUE_TIME);
            assertThat(after.values().get(PROMPT_TOKENS) - before.values().get(PROMPT_TOKENS))
                    .isEqualTo(80.0);
            assertThat(after.values().get(GENERATION_TOKENS)).isEqualTo(30.0);
            assertThat(after.values().get(GPU_POWER)).isBetween(70.0, 350.0);
            assertThat(after.values().get(GPU_ENERGY))
                    .isGreaterThan(before.values().get(GPU_ENERGY));
            for (ServerSignal histogram : after.histograms().keySet()) {
                Buckets run = after.histograms()
                        .get(histogram)
                        .minus(before.histograms().get(histogram));
                int perRequest = histogram == SERVER_ITL ? 9 : 1;
                assertThat(run.count()).as(histogram.name()).isEqualTo(2.0 * perRequest);
                assertThat(run.quantile(0.5)).as(histogram.name()).isNotNegative();
            }
            // The same prompt three times: the second and third find the first's full blocks in the cache.
            assertThat(after.values().get(PREFIX_CACHE_HITS)).isPositive();
            assertThat(after.unmapped()).extracting(Sample::name).contains("vllm:cache_config_info");
        }
    }

    @Test
    void should_count_once_when_the_mock_also_exports_the_deprecated_names() throws Exception {
        try (MockServer server = start(SimulatedMetrics.defaults().withDeprecatedVllmNames(true))) {
            complete(server, 40);
            complete(server, 40);
            ScrapeReading reading = scrape(server);

            // 2 x 40 prompt tokens queried, whichever of the two names is read, never both.
            assertThat(reading.values().get(PREFIX_CACHE_QUERIES)).isEqualTo(80.0);
            assertThat(reading.unmapped()).extracting(Sample::name).noneMatch(name -> name.contains("prefix_cache"));
        }
    }
}
