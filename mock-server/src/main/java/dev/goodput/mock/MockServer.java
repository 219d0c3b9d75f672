package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.mock.internal.engine.Engines;
import dev.goodput.mock.internal.engine.InferenceEngine;
import dev.goodput.mock.internal.http.ServerRuntime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.apiguardian.api.API;

/**
 * A simulated vLLM server speaking OpenAI's HTTP API: real clients stream from it, its tokens go out when its
 * {@link PerformanceModel} says, it injects {@link Faults}, and it records the true server-side timing of every
 * request ({@link #groundTruth()}).
 *
 * <pre>{@code
 * try (MockServer server = MockServer.start(MockServerConfig.defaults()
 *         .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(50), Duration.ofMillis(10))))) {
 *     String baseUrl = server.baseUrl() + "/v1";   // point an OpenAI client here
 * }
 * }</pre>
 *
 * <p>Endpoints: {@code POST /v1/completions}, {@code POST /v1/chat/completions}, {@code GET /v1/models},
 * {@code /health}, {@code /version}, {@code /metrics} (Prometheus, vLLM's names), {@code /debug/requests}
 * (the ground truth as JSON) and {@code POST /debug/reset} ({@link #reset(Duration)} over HTTP).
 *
 * <p>What it sends: streams exactly as vLLM's OpenAI server (a role-only first chat chunk sent with the first
 * token, one chunk per engine emission, {@code finish_reason} on the last content chunk, a usage chunk with
 * {@code stream_options.include_usage}, cumulative usage with {@code continuous_usage_stats}, {@code data:
 * [DONE]}), and vLLM's error envelope and statuses. {@code usage.prompt_tokens} follows {@link WordTokenizer}.
 * The text is one word per token; the words come from the request's {@code seed}, else at {@code
 * temperature: 0} from the prompt (equal prompts, equal outputs), else from the server's seed and the request's
 * position. Benchmarks pin the output length with {@code max_tokens} and {@code ignore_eos: true}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class MockServer implements AutoCloseable {

    private final MockServerConfig config;
    private final ServerRuntime runtime;

    private MockServer(MockServerConfig config, ServerRuntime runtime) {
        this.config = config;
        this.runtime = runtime;
    }

    /**
     * Starts a server; it is listening when this returns.
     *
     * @throws java.io.UncheckedIOException if it can't listen on the configured host and port
     */
    public static MockServer start(MockServerConfig config) {
        return start(config, Engines.start(config.performanceModel()));
    }

    /** Starts a server with the {@linkplain MockServerConfig#defaults() defaults}. */
    public static MockServer start() {
        return start(MockServerConfig.defaults());
    }

    /** Starts a server on a given engine (tests drive the protocol with a scripted engine). */
    static MockServer start(MockServerConfig config, InferenceEngine engine) {
        return new MockServer(config, ServerRuntime.start(config, engine));
    }

    /** Returns the server's root URL, e.g. {@code http://127.0.0.1:41234}; OpenAI clients want it plus {@code /v1}. */
    public String baseUrl() {
        String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return "http://" + host + ":" + port();
    }

    /** Returns the port the server listens on. */
    public int port() {
        return runtime.port();
    }

    /** Returns the name of the model the server serves. */
    public String modelName() {
        return config.modelName();
    }

    /** Returns the configuration the server was started with. */
    public MockServerConfig config() {
        return config;
    }

    /**
     * Returns the ground truth of the finished requests, oldest first, as an immutable snapshot. Requests still
     * in flight are not in it; past {@link MockServerConfig#groundTruthCapacity()} the oldest are dropped.
     */
    public List<RequestTruth> groundTruth() {
        return runtime.groundTruth();
    }

    /**
     * Waits until at least {@code count} requests have finished and returns the ground truth then.
     *
     * @throws TimeoutException if fewer have finished after {@code timeout}
     */
    public List<RequestTruth> awaitGroundTruth(int count, Duration timeout)
            throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<RequestTruth> truth = runtime.groundTruth();
            if (truth.size() + runtime.droppedGroundTruth() >= count) {
                return truth;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException(
                        "expected " + count + " finished requests within " + timeout + ", got " + truth.size());
            }
            Thread.sleep(5);
        }
    }

    /** Returns how many ground-truth records were dropped because the capacity was reached. */
    public long droppedGroundTruth() {
        return runtime.droppedGroundTruth();
    }

    /**
     * Brings the server back to the state it started in, so that the next run meets the same server as the first:
     * waits until no request is being served, then empties the KV cache and with it the prefix cache, zeroes the
     * {@code /metrics} counters, histograms and simulated GPU energy, clears the {@linkplain #groundTruth() ground
     * truth}, and counts request positions from 0 again (the same requests then draw the same faults and output
     * words as after the start). The port, open connections and configuration stay. Goodput's JUnit extension
     * calls it before every trial of a gate with {@code @Trials}.
     *
     * @param timeout how long to wait for the requests in flight to finish
     * @throws TimeoutException if requests were still being served after {@code timeout}; the server's state is
     *     then undefined (its engine may reset when it is next idle): reset it again once the load has stopped
     */
    public void reset(Duration timeout) throws TimeoutException, InterruptedException {
        runtime.reset(timeout);
    }

    /** Stops listening, closes every connection and stops the engine. */
    @Override
    public void close() {
        runtime.close();
    }
}
