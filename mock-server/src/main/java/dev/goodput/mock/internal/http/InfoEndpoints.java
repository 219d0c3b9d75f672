package dev.goodput.mock.internal.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.goodput.mock.ChunkTiming;
import dev.goodput.mock.RequestTruth;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;

/**
 * The informational endpoints: {@code /health}, {@code /version}, {@code /v1/models}, {@code /metrics} (vLLM's)
 * and {@code /debug/requests} (the mock's ground truth as JSON).
 */
final class InfoEndpoints {

    /**
     * What {@code /version} answers: the jar's version (its manifest's, {@code dev} when run from classes, as core's
     * {@code RunEnvironment} does), marked as this simulated server's rather than a vLLM release.
     */
    static final String VERSION =
            Objects.requireNonNullElse(InfoEndpoints.class.getPackage().getImplementationVersion(), "dev")
                    + "-goodput-mock";

    private final ServerContext server;

    InfoEndpoints(ServerContext server) {
        this.server = server;
    }

    /** Returns the whole response to a GET of one of the informational endpoints. */
    byte[] respond(HttpRequest request) {
        boolean keepAlive = request.keepAlive();
        switch (request.path()) {
            case "/health":
                return HttpResponses.full(200, HttpResponses.JSON_TYPE, new byte[0], keepAlive, Map.of());
            case "/version":
                ObjectNode version = HttpResponses.JSON.createObjectNode();
                version.put("version", VERSION);
                version.set(
                        "performance_model",
                        HttpResponses.JSON.valueToTree(server.model().describe()));
                return HttpResponses.json(200, version, keepAlive);
            case "/v1/models":
                return HttpResponses.json(200, models(), keepAlive);
            case "/metrics":
                byte[] text = server.metrics()
                        .render(server.engine().snapshot(), System.nanoTime())
                        .getBytes(StandardCharsets.UTF_8);
                return HttpResponses.full(200, "text/plain; version=0.0.4; charset=utf-8", text, keepAlive, Map.of());
            default:
                return HttpResponses.json(200, debugRequests(), keepAlive);
        }
    }

    private ObjectNode models() {
        ObjectNode root = HttpResponses.JSON.createObjectNode();
        root.put("object", "list");
        ObjectNode model = root.putArray("data").addObject();
        model.put("id", server.modelName());
        model.put("object", "model");
        model.put("created", server.startedEpochSeconds());
        model.put("owned_by", "vllm");
        model.put("root", server.modelName());
        model.putNull("parent");
        model.put("max_model_len", server.model().maxModelLen());
        return root;
    }

    private ObjectNode debugRequests() {
        ObjectNode root = HttpResponses.JSON.createObjectNode();
        root.put("dropped", server.truthLog().dropped());
        ArrayNode requests = root.putArray("requests");
        for (RequestTruth truth : server.truthLog().snapshot()) {
            ObjectNode node = requests.addObject();
            node.put("id", truth.id());
            node.put("endpoint", truth.endpoint());
            node.put("stream", truth.stream());
            node.put("status", truth.status());
            node.put("fault", truth.fault().cliName());
            node.put("finish_reason", truth.finishReason());
            node.put("arrival_nanos", truth.arrivalNanos());
            node.put("end_nanos", truth.endNanos());
            node.put("prompt_tokens", truth.promptTokens());
            node.put("max_tokens", truth.maxTokens());
            node.put("completion_tokens", truth.completionTokens());
            ArrayNode chunks = node.putArray("chunks");
            for (ChunkTiming chunk : truth.chunks()) {
                ObjectNode c = chunks.addObject();
                c.put("first_token", chunk.firstTokenIndex());
                c.put("tokens", chunk.tokens());
                c.put("intended_nanos", chunk.intendedNanos());
                c.put("sent_nanos", chunk.sentNanos());
            }
        }
        return root;
    }
}
