package dev.goodput.mock.internal.http;

import dev.goodput.mock.Fault;
import dev.goodput.mock.WordTokenizer;
import dev.goodput.mock.internal.engine.Generation;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Routes requests (404 for unknown paths, 405 for wrong methods) and serves the generation endpoints: parses,
 * draws the request's fault, records its ground truth and hands it to the engine with a streaming or buffered
 * sink.
 */
final class ApiHandler implements HttpServerLoop.RequestHandler {

    private static final String CHAT = "/v1/chat/completions";
    private static final String COMPLETIONS = "/v1/completions";
    private static final Map<String, String> METHODS = Map.of(
            CHAT,
            "POST",
            COMPLETIONS,
            "POST",
            "/v1/models",
            "GET",
            "/health",
            "GET",
            "/version",
            "GET",
            "/metrics",
            "GET",
            "/debug/requests",
            "GET",
            ServerReset.PATH,
            "POST");

    private final ServerContext server;
    private final ServerReset reset;
    private final InfoEndpoints info;
    private final GenerationRequestParser parser;
    private final String modelJson;
    private final AtomicLong generationRequests = new AtomicLong();
    private final long idNonce = System.nanoTime() & 0xffffffL;

    ApiHandler(ServerContext server, ServerReset reset) {
        this.server = server;
        this.reset = reset;
        this.info = new InfoEndpoints(server);
        this.parser = new GenerationRequestParser(
                server.modelName(), server.model().maxModelLen(), server.model().reasoningTokens());
        this.modelJson = new String(HttpResponses.toJson(server.modelName()), StandardCharsets.UTF_8);
    }

    @Override
    public void handle(HttpRequest request, HttpConnection connection) {
        String method = METHODS.get(request.path());
        if (method == null) {
            respond(connection, request, HttpResponses.error(404, "Not Found: " + request.path(), request.keepAlive()));
        } else if (!method.equals(request.method())) {
            respond(
                    connection,
                    request,
                    HttpResponses.error(
                            405,
                            "Method Not Allowed: " + request.method() + " " + request.path(),
                            request.keepAlive(),
                            Map.of("allow", method)));
        } else if (request.path().equals(CHAT) || request.path().equals(COMPLETIONS)) {
            generate(request, connection, request.path().equals(CHAT));
        } else if (request.path().equals(ServerReset.PATH)) {
            reset.respond(request, connection);
        } else {
            respond(connection, request, info.respond(request));
        }
    }

    private void generate(HttpRequest request, HttpConnection connection, boolean chat) {
        String path = request.path();
        // Ids stay unique across resets; the position that draws faults and outputs starts again at 0.
        String id = (chat ? "chatcmpl-" : "cmpl-")
                + String.format("%06x%010x", idNonce, generationRequests.getAndIncrement());
        long index = server.requestPositions().getAndIncrement();
        GenerationRequest generation;
        try {
            generation = parser.parse(request.body(), chat);
        } catch (ApiException e) {
            LiveTruth truth =
                    new LiveTruth(id, path, false, request.readNanos(), 0, 0, Fault.NONE, server.truthLog(), 0);
            server.truthLog().opened(truth, connection);
            sendError(connection, request, truth, e.status, e.getMessage(), Map.of());
            return;
        }
        FaultPlan plan = FaultPlan.draw(server.faults(), index, generation.maxTokens(), generation.stream());
        LiveTruth truth = new LiveTruth(
                id,
                path,
                generation.stream(),
                request.readNanos(),
                generation.promptTokens(),
                generation.maxTokens(),
                plan.fault(),
                server.truthLog(),
                (generation.maxTokens() + server.model().tokensPerChunk() - 1)
                        / server.model().tokensPerChunk());
        server.truthLog().opened(truth, connection);
        truth.answerShape(generation.reasoningTokens(), generation.toolName() != null);
        if (plan.fault() == Fault.HTTP_429 || plan.fault() == Fault.HTTP_500 || plan.fault() == Fault.HTTP_503) {
            int status = Integer.parseInt(plan.fault().cliName().substring("http-".length()));
            Map<String, String> headers = status != 500
                            && server.faults().retryAfter().isPresent()
                    ? Map.of(
                            "retry-after",
                            Long.toString(server.faults().retryAfter().get().toSeconds()))
                    : Map.of();
            sendError(
                    connection,
                    request,
                    truth,
                    status,
                    "Simulated failure (goodput mock fault " + plan.fault().cliName() + ")",
                    headers);
            return;
        }
        long outputSeed = outputSeed(generation, index);
        Generation engineRequest = new Generation(
                id,
                request.readNanos(),
                generation.promptTokenHashes(),
                generation.maxTokens(),
                generation.minTokens(),
                generation.ignoreEos(),
                outputSeed);
        long created = System.currentTimeMillis() / 1000;
        if (generation.stream()) {
            StreamingResponse sink = new StreamingResponse(
                    connection,
                    server.lanes().assign(),
                    server.timer(),
                    new ChunkEncoder(
                            chat,
                            id,
                            created,
                            modelJson,
                            generation.promptTokens(),
                            generation.reasoningTokens(),
                            generation.toolName()),
                    truth,
                    generation,
                    outputSeed,
                    plan,
                    server.faults().stallDuration().toNanos(),
                    request.keepAlive(),
                    server.faults().closeAfterStreams());
            sink.start();
            server.engine().submit(engineRequest, sink);
        } else {
            BufferedResponse sink = new BufferedResponse(
                    connection,
                    server.lanes().assignOr(server.timer()),
                    truth,
                    generation,
                    id,
                    created,
                    server.modelName(),
                    outputSeed,
                    request.keepAlive());
            sink.start();
            server.engine().submit(engineRequest, sink);
        }
    }

    /**
     * The seed of a request's output words and length draw: its own {@code seed} if given; else, at
     * temperature 0 (greedy decoding), one derived from the prompt, so equal prompts give equal outputs; else
     * one derived from the server's seed and the request's position.
     */
    private long outputSeed(GenerationRequest generation, long index) {
        if (generation.seed() != null) {
            return generation.seed();
        }
        if (generation.temperature() == 0.0) {
            long seed = 17;
            for (long hash : generation.promptTokenHashes()) {
                seed = seed * 31 + hash;
            }
            return seed;
        }
        return WordTokenizer.hash(server.seed() + ":" + index);
    }

    private void sendError(
            HttpConnection connection,
            HttpRequest request,
            LiveTruth truth,
            int status,
            String message,
            Map<String, String> headers) {
        byte[] response = HttpResponses.error(status, message, request.keepAlive(), headers);
        connection.send(ByteBuffer.wrap(response), sentNanos -> truth.finish(sentNanos, "error", status));
        connection.endResponse(request.keepAlive());
    }

    private static void respond(HttpConnection connection, HttpRequest request, byte[] response) {
        connection.send(ByteBuffer.wrap(response), null);
        connection.endResponse(request.keepAlive());
    }
}
