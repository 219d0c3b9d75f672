package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The ground truth and /metrics agree with what the client saw")
class GroundTruthAndMetricsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SAMPLE =
            Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*\\})? (-?[0-9.eE+-]+|\\+Inf|NaN)$");
    private static final String STREAM = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"a b c\"}],"
            + "\"max_tokens\":5,\"ignore_eos\":true,\"stream\":true}";

    private MockServer server;

    private void start(int capacity) {
        start(capacity, SimulatedMetrics.defaults());
    }

    private void start(int capacity, SimulatedMetrics simulated) {
        server = MockServer.start(
                MockServerConfig.builder()
                        .modelName("m")
                        .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1)))
                        .groundTruthCapacity(capacity)
                        .simulatedMetrics(simulated)
                        .build(),
                new ScriptedEngine(100, 1, 2));
    }

    /** Sends {@link #STREAM} and returns its lines as they arrive. */
    private HttpResponse<Stream<String>> streamLines() throws Exception {
        HttpClient client =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return client.send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/chat/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString(STREAM))
                        .build(),
                HttpResponse.BodyHandlers.ofLines());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    @DisplayName("every chunk is sent after its intended time, in order, and the client reads it after that time")
    void truth_is_consistent_with_the_client() throws Exception {
        start(100);
        HttpResponse<Stream<String>> response = streamLines();
        long firstContentSeen = -1;
        String id = null;
        for (Iterator<String> lines = response.body().iterator(); lines.hasNext(); ) {
            String line = lines.next();
            if (line.contains("\"content\":\" ") && firstContentSeen < 0) {
                firstContentSeen = System.nanoTime();
                id = JSON.readTree(line.substring("data: ".length())).get("id").asText();
            }
        }

        RequestTruth truth = server.awaitGroundTruth(1, Duration.ofSeconds(10)).get(0);
        assertThat(truth.id()).isEqualTo(id);
        assertThat(truth.stream()).isTrue();
        assertThat(truth.promptTokens()).isEqualTo(3 + 3 + 3);
        assertThat(truth.completionTokens()).isEqualTo(5);
        assertThat(truth.finishReason()).isEqualTo("length");
        assertThat(truth.status()).isEqualTo(200);
        assertThat(truth.fault()).isEqualTo(Fault.NONE);
        assertThat(truth.chunks()).extracting(ChunkTiming::firstTokenIndex).containsExactly(0, 1, 2, 3, 4);
        assertThat(truth.chunks())
                .allSatisfy(chunk -> assertThat(chunk.lateNanos()).isNotNegative());
        assertThat(truth.chunks()).extracting(ChunkTiming::sentNanos).isSorted();
        assertThat(truth.arrivalNanos()).isLessThan(truth.firstTokenSentNanos().orElseThrow());
        // The client can't see a chunk before the model meant it to go out. (It may see it a few microseconds
        // before "sent", which is taken when the write call has returned, after the kernel woke the reader.)
        assertThat(firstContentSeen)
                .isGreaterThanOrEqualTo(truth.chunks().get(0).intendedNanos());
        assertThat(truth.endNanos())
                .isGreaterThanOrEqualTo(truth.chunks().get(4).sentNanos());
    }

    @Test
    @DisplayName("/debug/requests serves the ground truth as JSON")
    void debug_endpoint_serves_the_truth() throws Exception {
        start(100);
        TestHttp.post(server, "/v1/chat/completions", STREAM);
        RequestTruth truth = server.awaitGroundTruth(1, Duration.ofSeconds(10)).get(0);

        JsonNode debug = JSON.readTree(TestHttp.get(server, "/debug/requests").body());

        JsonNode request = debug.get("requests").get(0);
        assertThat(request.get("id").asText()).isEqualTo(truth.id());
        assertThat(request.get("fault").asText()).isEqualTo("none");
        assertThat(request.get("chunks")).hasSize(5);
        assertThat(request.get("chunks").get(0).get("sent_nanos").asLong())
                .isEqualTo(truth.chunks().get(0).sentNanos());
        assertThat(debug.get("dropped").asLong()).isZero();
    }

    @Test
    @DisplayName("past its capacity the ground truth keeps the newest records and counts the dropped")
    void ground_truth_is_bounded() throws Exception {
        start(2);
        for (int i = 0; i < 4; i++) {
            TestHttp.post(server, "/v1/completions", "{\"model\":\"m\",\"prompt\":\"p" + i + "\",\"max_tokens\":1}");
        }

        List<RequestTruth> truth = server.awaitGroundTruth(4, Duration.ofSeconds(10));

        assertThat(truth).hasSize(2);
        assertThat(server.droppedGroundTruth()).isEqualTo(2);
    }

    @Test
    @DisplayName("/metrics is Prometheus text with vLLM's names, the engine's gauges and true latency histograms")
    void metrics_parse_and_have_vllm_names() throws Exception {
        start(100);
        for (int i = 0; i < 3; i++) {
            TestHttp.post(server, "/v1/chat/completions", STREAM);
        }
        server.awaitGroundTruth(3, Duration.ofSeconds(10));

        HttpResponse<String> response = TestHttp.get(server, "/metrics");

        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        Map<String, Double> samples = samples(response.body());
        assertThat(samples)
                .containsEntry("vllm:num_requests_running{}", 1.0)
                .containsEntry("vllm:num_requests_waiting{}", 2.0)
                .containsEntry("vllm:kv_cache_usage_perc{}", 0.25)
                .containsEntry("vllm:prefix_cache_queries_total{}", 100.0)
                .containsEntry("vllm:prefix_cache_hits_total{}", 40.0)
                .containsEntry("vllm:num_preemptions_total{}", 3.0)
                .containsEntry("vllm:prompt_tokens_total{}", 1000.0)
                .containsEntry("vllm:generation_tokens_total{}", 500.0)
                .containsEntry("vllm:request_success_total{finished_reason=\"length\"}", 3.0)
                .containsEntry("vllm:time_to_first_token_seconds_count{}", 3.0)
                .containsEntry("vllm:time_to_first_token_seconds_bucket{le=\"+Inf\"}", 3.0)
                .containsEntry("vllm:inter_token_latency_seconds_count{}", 12.0)
                .containsEntry("vllm:e2e_request_latency_seconds_count{}", 3.0);
        assertThat(samples.get("vllm:time_to_first_token_seconds_sum{}")).isPositive();
    }

    @Test
    @DisplayName("a streamed request's first token is in the TTFT histogram as it leaves, before the request ends")
    void ttft_is_observed_when_the_first_token_is_sent() throws Exception {
        server = MockServer.start(MockServerConfig.builder()
                .modelName("m")
                .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(200)))
                .build());
        HttpResponse<Stream<String>> response = streamLines();
        Iterator<String> lines = response.body().iterator();
        while (!lines.next().contains("\"content\":\" ")) {
            // up to the first token
        }

        // Four more tokens, 200 ms apart, are still to come: the request has not ended.
        Map<String, Double> during = samples(TestHttp.get(server, "/metrics").body());
        lines.forEachRemaining(line -> {});
        server.awaitGroundTruth(1, Duration.ofSeconds(10));
        Map<String, Double> after = samples(TestHttp.get(server, "/metrics").body());

        assertThat(during)
                .containsEntry("vllm:time_to_first_token_seconds_count{}", 1.0)
                .containsEntry("vllm:e2e_request_latency_seconds_count{}", 0.0);
        assertThat(after)
                .containsEntry("vllm:time_to_first_token_seconds_count{}", 1.0)
                .containsEntry("vllm:e2e_request_latency_seconds_count{}", 1.0);
    }

    @Test
    @DisplayName("/metrics adds the queue-time histogram, the cache config and the simulated GPU under DCGM's names")
    void metrics_have_queue_time_cache_config_and_gpu() throws Exception {
        start(100);
        TestHttp.post(server, "/v1/chat/completions", STREAM);
        server.awaitGroundTruth(1, Duration.ofSeconds(10));

        String body = TestHttp.get(server, "/metrics").body();
        Map<String, Double> samples = samples(body);

        assertThat(body)
                .contains("# TYPE vllm:request_queue_time_seconds histogram\n")
                .contains("# TYPE vllm:cache_config_info gauge\n")
                .contains("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n")
                .contains("# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n")
                .contains("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n");
        PerformanceModel model = PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1));
        assertThat(samples)
                .containsEntry("vllm:request_queue_time_seconds_bucket{le=\"0.3\"}", 0.0)
                .containsEntry("vllm:request_queue_time_seconds_bucket{le=\"+Inf\"}", 0.0)
                .containsEntry("vllm:request_queue_time_seconds_count{}", 0.0)
                .containsEntry("vllm:request_queue_time_seconds_sum{}", 0.0)
                .containsEntry(
                        "vllm:cache_config_info{block_size=\"" + model.blockSize() + "\",enable_prefix_caching=\""
                                + (model.prefixCaching() ? "True" : "False") + "\",num_gpu_blocks=\""
                                + model.kvCacheTokens() / model.blockSize() + "\"}",
                        1.0);
        // The scripted engine never steps, so the simulated GPU idles at its default 70 W.
        String gpu = "{gpu=\"0\",UUID=\"GPU-00000000-0000-4000-8000-000000000000\","
                + "modelName=\"Goodput simulated GPU\",Hostname=\"goodput-mock\"}";
        assertThat(samples).containsEntry("DCGM_FI_DEV_GPU_UTIL" + gpu, 0.0);
        assertThat(samples).containsEntry("DCGM_FI_DEV_POWER_USAGE" + gpu, 70.0);
        assertThat(samples.get("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" + gpu)).isPositive();
        assertThat(samples).doesNotContainKey("vllm:gpu_cache_usage_perc{}");
    }

    @Test
    @DisplayName("with deprecated names on, /metrics also has vLLM 0.10's old KV and prefix-cache names")
    void metrics_can_add_the_deprecated_names() throws Exception {
        start(100, SimulatedMetrics.defaults().withDeprecatedVllmNames(true));

        String body = TestHttp.get(server, "/metrics").body();
        Map<String, Double> samples = samples(body);

        assertThat(body)
                .contains("# TYPE vllm:gpu_cache_usage_perc gauge\n")
                .contains("# TYPE vllm:gpu_prefix_cache_queries_total counter\n");
        assertThat(samples)
                .containsEntry("vllm:gpu_cache_usage_perc{}", 0.25)
                .containsEntry("vllm:kv_cache_usage_perc{}", 0.25)
                .containsEntry("vllm:gpu_prefix_cache_queries_total{}", 100.0)
                .containsEntry("vllm:gpu_prefix_cache_hits_total{}", 40.0);
    }

    /**
     * Checks every line's syntax and returns the samples by name and labels, without the engine and model-name
     * labels that every vLLM series carries (and checks); the DCGM series carry the GPU's labels instead.
     */
    private static Map<String, Double> samples(String body) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : body.split("\n")) {
            if (line.startsWith("#")) {
                assertThat(line).matches("# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+");
                continue;
            }
            Matcher sample = SAMPLE.matcher(line);
            assertThat(sample.matches()).as("sample line %s", line).isTrue();
            String labels = sample.group(2) == null ? "" : sample.group(2);
            if (!sample.group(1).startsWith("DCGM_")) {
                assertThat(labels).contains("model_name=\"m\"");
            }
            samples.put(
                    sample.group(1) + labels.replaceAll("(engine|model_name)=\"[^\"]*\",?", ""),
                    Double.valueOf(sample.group(3)));
        }
        return samples;
    }
}
