package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The batching engine driven past its knee over HTTP, watched only through {@code /metrics}: what a scraper would
 * see of a server whose KV cache runs out.
 */
@DisplayName("Past the knee, /metrics shows the KV cache filling, preemptions, queue times and a busy GPU")
class MetricsPastTheKneeTest {

    private static final int REQUESTS = 8;

    @Test
    void metrics_show_the_kv_cache_running_out() throws Exception {
        // tiny-test batches 8 sequences; 1,024 tokens of KV hold 8 x 128 tokens, and each request needs 64 + 100.
        PerformanceModel model =
                PerformanceModel.preset("tiny-test").withMaxModelLen(512).withKvCacheTokens(1024);
        try (MockServer server = MockServer.start(MockServerConfig.builder()
                .modelName("m")
                .performanceModel(model)
                .build())) {
            HttpClient client =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                // Distinct prompts, so that the prefix cache shares no blocks between them.
                StringBuilder prompt = new StringBuilder();
                for (int word = 0; word < 64; word++) {
                    prompt.append(word == 0 ? "" : " ")
                            .append('r')
                            .append(i)
                            .append('w')
                            .append(word);
                }
                responses.add(client.sendAsync(
                        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/completions"))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"" + prompt
                                        + "\",\"max_tokens\":100,\"ignore_eos\":true}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            double highestKvUse = 0;
            double highestGpuUtil = 0;
            CompletableFuture<Void> all = CompletableFuture.allOf(responses.toArray(CompletableFuture[]::new));
            while (!all.isDone()) {
                String metrics = TestHttp.get(server, "/metrics").body();
                highestKvUse = Math.max(highestKvUse, value(metrics, "vllm:kv_cache_usage_perc"));
                highestGpuUtil = Math.max(highestGpuUtil, value(metrics, "DCGM_FI_DEV_GPU_UTIL"));
                Thread.sleep(10);
            }
            all.get();
            responses.forEach(
                    response -> assertThat(response.join().statusCode()).isEqualTo(200));
            String metrics = TestHttp.get(server, "/metrics").body();

            assertThat(highestKvUse).isGreaterThan(0.9);
            assertThat(value(metrics, "vllm:num_preemptions_total")).isPositive();
            assertThat(value(metrics, "vllm:request_queue_time_seconds_count")).isEqualTo(REQUESTS);
            assertThat(value(metrics, "vllm:generation_tokens_total")).isEqualTo(REQUESTS * 100);
            // The engine stepped without pause while the requests ran: the GPU was busy most of the last second.
            assertThat(highestGpuUtil).isGreaterThan(50);
            assertThat(value(metrics, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION")).isPositive();
        }
    }

    /** The value of the first series named {@code name}, whatever its labels. */
    private static double value(String metrics, String name) {
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? (\\S+)$")
                .matcher(metrics);
        assertThat(line.find()).as("series %s in /metrics", name).isTrue();
        return Double.parseDouble(line.group(2));
    }
}
