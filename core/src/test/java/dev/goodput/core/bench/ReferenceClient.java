package dev.goodput.core.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * vLLM's own benchmark client, run beside Goodput's in {@link ClientBenchmark} as issue 15's reference: {@code
 * .ci/bench-reference-client.py} drives vLLM's request function from a vLLM checkout in a closed loop, in a Python
 * process of its own, and reports its CPU time and each content chunk's receipt stamp.
 *
 * <p>vLLM's function does not keep the response id, so each request's prompt has its own number of words, which
 * the simulated server reports as its prompt tokens: {@link Response#promptWords()} finds the server's record.
 */
final class ReferenceClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SCRIPT = Path.of(".ci", "bench-reference-client.py");

    private final String python;
    private final Path module;
    /** The next request's prompt words: past Goodput's prompts, and never the same twice in a benchmark. */
    private int nextPromptWords = 1_000;

    private ReferenceClient(String python, Path module) {
        this.python = python;
        this.module = module;
    }

    /**
     * The reference client named by {@code bench.vllmRequestFunc} (a vLLM checkout's {@code
     * vllm/benchmarks/lib/endpoint_request_func.py}), run with {@code bench.python} ({@code python3} by default,
     * which needs aiohttp, regex and tqdm), or null when none is named.
     */
    static ReferenceClient configured() {
        String module = System.getProperty("bench.vllmRequestFunc");
        if (module == null || module.isBlank()) {
            return null;
        }
        Path path = Path.of(module);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("bench.vllmRequestFunc: no such file: " + module);
        }
        if (!Files.isRegularFile(SCRIPT)) {
            throw new IllegalStateException("run from the checkout's root: " + SCRIPT + " not found");
        }
        return new ReferenceClient(System.getProperty("bench.python", "python3"), path);
    }

    /**
     * Runs {@code streams} x {@code rounds} requests at {@code streams} at once, after the untimed test request and
     * {@code streams} warm-up requests, as {@code vllm bench serve} runs them, and waits for them.
     */
    Run run(String baseUrl, String model, int streams, int rounds, int outputTokens)
            throws IOException, InterruptedException {
        int firstWords = nextPromptWords;
        nextPromptWords += streams * (rounds + 1) + 1; // its test request, its warm-ups, the timed ones
        Path output = Files.createTempFile("goodput-reference-client", ".json");
        try {
            Process process = new ProcessBuilder(
                            python,
                            SCRIPT.toString(),
                            "--module",
                            module.toString(),
                            "--url",
                            baseUrl,
                            "--model",
                            model,
                            "--streams",
                            Integer.toString(streams),
                            "--rounds",
                            Integer.toString(rounds),
                            "--output-tokens",
                            Integer.toString(outputTokens),
                            "--first-prompt-words",
                            Integer.toString(firstWords))
                    .redirectOutput(output.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("the reference client did not finish within 10 minutes");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("the reference client exited with " + process.exitValue());
            }
            return parse(Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static Run parse(String text) throws IOException {
        JsonNode root = JSON.readTree(text);
        List<Response> responses = new ArrayList<>();
        for (JsonNode request : root.get("requests")) {
            if (!request.get("success").asBoolean()) {
                throw new IllegalStateException(
                        "a reference request failed: " + request.get("error").asText());
            }
            JsonNode chunks = request.get("chunk_nanos");
            long[] stamps = new long[chunks.size()];
            for (int i = 0; i < stamps.length; i++) {
                stamps[i] = chunks.get(i).asLong();
            }
            responses.add(new Response(request.get("prompt_words").asInt(), stamps));
        }
        return new Run(
                Math.round(root.get("cpu_seconds").asDouble() * 1e9),
                Math.round(root.get("wall_seconds").asDouble() * 1e9),
                responses);
    }

    /** What the reference client measured in one run: its process's CPU and wall time over the timed requests. */
    record Run(long cpuNanos, long wallNanos, List<Response> responses) {}

    /** One request: its prompt's words and each content chunk's receipt, on the monotonic clock. */
    record Response(int promptWords, long[] chunkNanos) {}
}
