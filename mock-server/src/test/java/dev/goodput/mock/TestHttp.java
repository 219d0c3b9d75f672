package dev.goodput.mock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small loopback HTTP/1.1 client for protocol tests. */
final class TestHttp {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private TestHttp() {}

    static HttpResponse<String> post(MockServer server, String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    static HttpResponse<String> get(MockServer server, String path) {
        return send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build());
    }

    static HttpResponse<String> send(HttpRequest request) {
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Replaces the parts of a stream that change from run to run (id, created) with fixed values. */
    static String normalise(String body) {
        return body.replaceAll("\"id\":\"(chatcmpl|cmpl)-[0-9a-f]+\"", "\"id\":\"ID\"")
                .replaceAll("\"created\":[0-9]+", "\"created\":0");
    }
}
