package dev.goodput.testcontainers.internal;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends one small completion to a server that says it is ready, so that lazy initialisation (compilation,
 * CUDA-graph capture, class loading) happens before the first measured request rather than inside it.
 */
public final class WarmUp {

    private WarmUp() {}

    /**
     * Sends one non-streamed one-token completion and waits for it.
     *
     * @throws IllegalStateException if it fails, with the status and the start of the answer
     */
    public static void completeOneRequest(String baseUrl, String model, Duration timeout) {
        String body = "{\"model\":\"" + model.replace("\\", "\\\\").replace("\"", "\\\"")
                + "\",\"prompt\":\"Hello\",\"max_tokens\":1}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/v1/completions"))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("the warm-up completion to " + baseUrl + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while warming up " + baseUrl, e);
        }
        if (response.statusCode() != 200) {
            String answer = response.body();
            throw new IllegalStateException("the warm-up completion to " + baseUrl + " answered HTTP "
                    + response.statusCode() + ": " + answer.substring(0, Math.min(200, answer.length())));
        }
    }
}
