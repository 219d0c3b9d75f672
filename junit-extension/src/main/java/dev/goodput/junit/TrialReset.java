package dev.goodput.junit;

import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.mock.MockServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Brings the server under test to the same state before every run of a gate with {@link Trials} (each trial and
 * each repeated attempt), so that no trial finds what an earlier one left: a simulated server is {@linkplain
 * MockServer#reset(Duration) reset} (empty prefix and KV cache, zeroed counters), in a container through its
 * {@code POST /debug/reset}; any other server is sent {@code POST} {@link Trials#resetPath()} when the gate names
 * one. What cannot be reset is said once per gate; each
 * trial's own warm-up (part of its load) is then what evens out the rest.
 */
final class TrialReset {

    /** The {@code server} that {@code GoodputMockServerContainer} names in its endpoint's metadata. */
    static final String SIMULATED_SERVER = "goodput-mock-server";

    /** The simulated server's reset endpoint ({@code GoodputMockServerContainer.RESET_PATH}). */
    static final String SIMULATED_SERVER_RESET_PATH = "/debug/reset";

    /** How long a reset may wait for the server to become idle and answer. */
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private final GateContext gate;
    private final Trials trials;
    private final MockServer simulated;
    private final URI resetUrl;
    private int runs;

    private TrialReset(GateContext gate, Trials trials, MockServer simulated, URI resetUrl) {
        this.gate = gate;
        this.trials = trials;
        this.simulated = simulated;
        this.resetUrl = resetUrl;
    }

    /**
     * Returns the reset of the gate's server; it does nothing when {@code trials} is {@code null} (a gate without
     * {@link Trials} keeps its single run as it always was).
     */
    static TrialReset of(GateContext gate, Trials trials) {
        if (trials == null) {
            return new TrialReset(gate, null, null, null);
        }
        String path = trials.resetPath();
        if (!path.isEmpty()
                && (!path.startsWith("/") || path.contains("?") || path.contains("#") || path.contains(" "))) {
            throw new ExtensionConfigurationException("@Trials on " + gate.name() + ": resetPath = \"" + path
                    + "\"; it must be a path on the server under test starting with /, for example"
                    + " \"/reset_prefix_cache\"");
        }
        MockServer simulated = gate.server().simulated();
        ServerEndpoint endpoint = gate.server().endpoint();
        if (path.isEmpty() && SIMULATED_SERVER.equals(endpoint.metadata().get("server"))) {
            path = SIMULATED_SERVER_RESET_PATH; // the simulated server in a container resets as the embedded one
        }
        if (simulated != null || path.isEmpty()) {
            return new TrialReset(gate, trials, simulated, null);
        }
        String base = endpoint.baseUrl().toString();
        return new TrialReset(gate, trials, null, URI.create(base.replaceAll("/+$", "") + path));
    }

    /** Resets the server before the next run of a gate with {@link Trials}; says once what the runs start from. */
    void beforeRun(RunSpec spec) {
        if (trials == null) {
            return;
        }
        runs++;
        if (simulated != null) {
            resetSimulated();
        } else if (resetUrl != null) {
            post();
        }
        if (runs == 1) {
            System.out.println("TRIALS: " + gate.name() + ": " + startingState(spec.load()));
        }
    }

    private String startingState(Load load) {
        String warmup = warmup(load);
        if (simulated != null) {
            return "each run starts from a reset simulated server (empty prefix and KV cache, zeroed counters)"
                    + (trials.resetPath().isEmpty()
                            ? ""
                            : "; resetPath \"" + trials.resetPath() + "\" is not used, as it is reset in this JVM");
        }
        if (resetUrl != null
                && SIMULATED_SERVER.equals(gate.server().endpoint().metadata().get("server"))) {
            return "each run starts from a reset simulated server (POST " + resetUrl
                    + ": empty prefix and KV cache, zeroed counters)";
        }
        if (resetUrl != null) {
            return "each run starts after POST " + resetUrl + ", then " + warmup
                    + "; what that endpoint does not reset carries over between trials";
        }
        return "Goodput cannot reset " + gate.server().source() + ": each run starts with " + warmup
                + ", and may find what earlier trials left in the server's caches (prefix cache, KV cache);"
                + " @Trials(resetPath = ...) names the server's reset endpoint if it has one (docs/metrics.md)";
    }

    private static String warmup(Load load) {
        if (load.warmup().isEmpty()) {
            return "no warm-up (@LoadProfile's warmupRequests or warmupSeconds would give it one)";
        }
        return "its own warm-up (" + load.warmup() + ", not measured)";
    }

    private void resetSimulated() {
        try {
            simulated.reset(TIMEOUT);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    gate.name() + ": the simulated server could not be reset before run " + runs + ": "
                            + e.getMessage(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(gate.name() + ": interrupted while resetting the simulated server", e);
        }
    }

    private void post() {
        HttpRequest request = HttpRequest.newBuilder(resetUrl)
                .timeout(TIMEOUT)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        HttpResponse<String> response;
        try {
            response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(
                    gate.name() + ": POST " + resetUrl + " (@Trials resetPath) before run " + runs + " failed: " + e,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(gate.name() + ": interrupted during POST " + resetUrl, e);
        }
        if (response.statusCode() / 100 != 2) {
            String body = response.body().strip();
            throw new IllegalStateException(gate.name() + ": POST " + resetUrl + " (@Trials resetPath) before run "
                    + runs + " answered " + response.statusCode()
                    + (body.isEmpty() ? "" : ": " + body.substring(0, Math.min(200, body.length())))
                    + "; the trials would not start from equal server state");
        }
    }
}
