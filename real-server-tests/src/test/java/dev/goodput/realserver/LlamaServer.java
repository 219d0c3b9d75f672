package dev.goodput.realserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.StartableServer;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.servermetrics.internal.Exposition;
import dev.goodput.core.servermetrics.internal.Sample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * llama.cpp's {@code llama-server} as a child process on loopback, with the tiny model {@code .ci/setup-llama.sh}
 * generates: started on a free port, ready when {@code /health} answers 200, its output in {@code
 * target/real-server/llama-server-<port>.log}. One thread ({@code -t 1}) so that the client and the build keep the
 * second core of a 2-core machine.
 */
final class LlamaServer implements StartableServer {

    /** The variables {@code .ci/setup-llama.sh} exports; the tests skip without the first two. */
    static final String BINARY_VARIABLE = "GOODPUT_LLAMA_SERVER";

    static final String MODEL_VARIABLE = "GOODPUT_LLAMA_MODEL";
    static final String TOKENIZER_VARIABLE = "GOODPUT_LLAMA_TOKENIZER";
    static final String VERSION_VARIABLE = "GOODPUT_LLAMA_VERSION";

    static final String SKIP_REASON = "llama-server is not set up: run eval \"$(bash .ci/setup-llama.sh)\" first"
            + " (it exports " + BINARY_VARIABLE + " and " + MODEL_VARIABLE + "); see docs/real-servers.md";

    /** The name the server answers to ({@code --alias}). */
    static final String MODEL = "tiny-llama3";

    static final Path REPORTS = Path.of("target", "real-server");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final int slots;
    private final int contextSize;
    private final List<String> extraArguments;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private Process process;
    private int port;

    private LlamaServer(int slots, int contextSize, List<String> extraArguments) {
        this.slots = slots;
        this.contextSize = contextSize;
        this.extraArguments = List.copyOf(extraArguments);
    }

    /** A server with {@code slots} parallel slots sharing a context of {@code contextSize} tokens. */
    static LlamaServer withSlots(int slots, int contextSize, String... extraArguments) {
        return new LlamaServer(slots, contextSize, List.of(extraArguments));
    }

    /** Returns the tokenizer.json made from the model's vocabulary, for Goodput's {@code hf:} tokenizer. */
    static Path tokenizerFile() {
        String value = System.getenv(TOKENIZER_VARIABLE);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(TOKENIZER_VARIABLE + " is not set: " + SKIP_REASON);
        }
        return Path.of(value);
    }

    @Override
    public synchronized void start() {
        if (isRunning()) {
            return;
        }
        Path binary = Path.of(requiredVariable(BINARY_VARIABLE));
        Path model = Path.of(requiredVariable(MODEL_VARIABLE));
        port = freePort();
        List<String> command = new ArrayList<>(arguments(binary, model));
        try {
            Files.createDirectories(REPORTS);
            Path log = REPORTS.resolve("llama-server-" + port + ".log");
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            awaitHealthy(log);
        } catch (IOException e) {
            stop();
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    private List<String> arguments(Path binary, Path model) {
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "-m",
                model.toString(),
                "--alias",
                MODEL,
                "--host",
                "127.0.0.1",
                "--port",
                Integer.toString(port),
                "--parallel",
                Integer.toString(slots),
                "-c",
                Integer.toString(contextSize),
                "-t",
                "1",
                "--metrics"));
        command.addAll(extraArguments);
        return command;
    }

    private void awaitHealthy(Path log) throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("llama-server exited with status " + process.exitValue()
                        + " before it was ready; its output (" + log + "):\n" + tail(log));
            }
            try {
                if (get("/health").statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // Not listening yet.
            }
            sleep(200);
        }
        stop();
        throw new IllegalStateException(
                "llama-server was not ready within " + READY_TIMEOUT + "; its output:\n" + tail(log));
    }

    @Override
    public synchronized void stop() {
        if (process != null) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
    }

    /** Kills the server at once (SIGKILL), as a crash would: no response is finished, no connection closed politely. */
    synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    @Override
    public synchronized ServerEndpoint serverEndpoint() {
        if (process == null) {
            throw new IllegalStateException("llama-server is not running");
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("engine", "llama.cpp llama-server");
        metadata.put("version", System.getenv().getOrDefault(VERSION_VARIABLE, "unknown"));
        metadata.put(
                "model_file",
                Path.of(requiredVariable(MODEL_VARIABLE)).getFileName().toString());
        metadata.put("slots", slots);
        metadata.put("context_size", contextSize);
        metadata.put("extra_arguments", extraArguments);
        return ServerEndpoint.of(baseUrl(), MODEL).withMetadata(metadata);
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** GETs a path of the server. */
    HttpResponse<String> get(String path) throws IOException {
        return send(HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build());
    }

    /** POSTs a JSON body and returns the parsed answer; fails on a status other than 200. */
    JsonNode post(String path, Object body) throws IOException {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)))
                .build());
        if (response.statusCode() != 200) {
            throw new IOException("POST " + path + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    /** Returns the server's token ids for {@code text}, without special tokens. */
    List<Integer> tokenize(String text) throws IOException {
        JsonNode tokens =
                post("/tokenize", Map.of("content", text, "add_special", false)).get("tokens");
        List<Integer> ids = new ArrayList<>();
        tokens.forEach(token -> ids.add(token.asInt()));
        return ids;
    }

    /**
     * Returns the samples of {@code /metrics} by name (without labels; llama.cpp's have none), for example {@code
     * llamacpp:tokens_predicted_total}.
     */
    Map<String, Double> metrics() throws IOException {
        HttpResponse<String> response = get("/metrics");
        if (response.statusCode() != 200) {
            throw new IOException("/metrics answered " + response.statusCode() + ": " + response.body());
        }
        Map<String, Double> samples = new LinkedHashMap<>();
        for (Sample sample : Exposition.parse(response.body(), SecretRedaction.none())) {
            samples.put(sample.name(), sample.value());
        }
        return samples;
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static String requiredVariable(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set: " + SKIP_REASON);
        }
        return value;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for llama-server", e);
        }
    }
}
