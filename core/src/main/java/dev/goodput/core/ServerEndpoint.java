package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.redaction.SecretRedaction;
import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/**
 * The server under test: where it is, which model to ask for, and what its stream is known to send.
 *
 * <pre>{@code
 * ServerEndpoint server = ServerEndpoint.of("http://127.0.0.1:8000", "meta-llama/Llama-3.1-8B-Instruct")
 *         .withApiKeyFromEnvironment("VLLM_API_KEY");
 * }</pre>
 *
 * <p>The API key is never held here: only the name of the environment variable it is read from, when each run
 * starts. It is sent as a bearer token and never logged, reported or put in an exception message.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ServerEndpoint {

    /** The API base path when none is set: requests go to {@code /v1/chat/completions} and the like. */
    public static final String DEFAULT_API_BASE_PATH = "/v1";

    /** The settings; the withX methods change a copy, and no instance changes after construction. */
    private static final class Fields implements Cloneable {
        URI baseUrl;
        String apiBasePath = DEFAULT_API_BASE_PATH;
        String model;
        String apiKeyVariable;
        boolean continuousUsageStats = true;
        boolean requireStreamEnd = true;
        Duration connectTimeout = Duration.ofSeconds(10);
        UnaryOperator<String> environment = System::getenv;
        Map<String, Object> metadata = Map.of();

        Fields copy() {
            try {
                return (Fields) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    // Final, so the settings it holds are safely published with the endpoint.
    private final Fields fields;

    private ServerEndpoint(Fields fields) {
        this.fields = fields;
    }

    private ServerEndpoint with(Consumer<Fields> change) {
        Fields copy = fields.copy();
        change.accept(copy);
        return new ServerEndpoint(copy);
    }

    /**
     * Returns an endpoint for an OpenAI-compatible server.
     *
     * @param baseUrl the server's root, for example {@code http://127.0.0.1:8000}; a trailing {@code /v1} is
     *     accepted and removed, because the API base path is {@code /v1} unless {@linkplain #withApiBasePath set}
     * @param model the model name sent in every request
     * @throws InvalidSettingException if the URL is not an absolute http or https URL, or the model is blank
     */
    public static ServerEndpoint of(String baseUrl, String model) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        URI uri;
        try {
            uri = URI.create(baseUrl.trim());
        } catch (IllegalArgumentException e) {
            InvalidSettingException refusal =
                    InvalidSettingException.of("baseUrl", "'" + baseUrl + "'", "is not a valid URL: " + e.getMessage());
            refusal.initCause(e);
            throw refusal;
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw InvalidSettingException.of("baseUrl", "'" + baseUrl + "'", "must be an absolute http or https URL");
        }
        if (model.isBlank()) {
            throw InvalidSettingException.of("model", "'" + model + "'", "must not be blank");
        }
        String root = uri.toString().replaceAll("/+$", "");
        if (root.endsWith("/v1")) {
            root = root.substring(0, root.length() - 3);
        }
        Fields fields = new Fields();
        fields.baseUrl = URI.create(root);
        fields.model = model;
        return new ServerEndpoint(fields);
    }

    /**
     * Sets the path under the base URL where the OpenAI-compatible API is served (default {@code /v1}): requests go
     * to {@code <base URL><path>/chat/completions}, {@code .../completions} and {@code .../models}. Use {@code ""} for
     * a server that serves the API at its root (Jlama does), or for example {@code /openai/v1} behind a gateway.
     *
     * @param path empty, or a path starting with {@code /}; a trailing {@code /} is removed
     * @throws InvalidSettingException if the path does not start with {@code /}, or has a query, a fragment or
     *     whitespace
     */
    public ServerEndpoint withApiBasePath(String path) {
        Objects.requireNonNull(path, "apiBasePath");
        String trimmed = path.replaceAll("/+$", "");
        if (!trimmed.isEmpty() && !trimmed.startsWith("/")
                || trimmed.chars().anyMatch(c -> c == '?' || c == '#' || Character.isWhitespace(c))) {
            throw InvalidSettingException.of(
                    "apiBasePath",
                    "'" + path + "'",
                    "must be empty or a path starting with '/' (such as '/v1'), without query, fragment or spaces");
        }
        return with(f -> f.apiBasePath = trimmed);
    }

    /** Returns the path under the base URL where the API is served, {@code /v1} unless set; empty for the root. */
    public String apiBasePath() {
        return fields.apiBasePath;
    }

    /**
     * Returns the URL of an API path, for example {@code apiUrl("/chat/completions")} is {@code
     * http://127.0.0.1:8000/v1/chat/completions} by default.
     */
    public URI apiUrl(String path) {
        return URI.create(fields.baseUrl + fields.apiBasePath + path);
    }

    /** Reads the API key from the named environment variable when a run starts, and sends it as a bearer token. */
    public ServerEndpoint withApiKeyFromEnvironment(String variable) {
        Objects.requireNonNull(variable, "variable");
        if (variable.isBlank()) {
            throw InvalidSettingException.of(
                    "apiKeyFromEnvironment", "'" + variable + "'", "must name an environment variable, not be blank");
        }
        return with(f -> f.apiKeyVariable = variable);
    }

    /**
     * Sets whether to ask for vLLM's {@code stream_options.continuous_usage_stats} (default true), which
     * gives the token count of every event. Turn it off for servers that reject unknown stream options.
     */
    public ServerEndpoint withContinuousUsageStats(boolean value) {
        return with(f -> f.continuousUsageStats = value);
    }

    /**
     * Sets whether a stream must end with {@code [DONE]} and carry a {@code finish_reason} to count as a
     * success (default true). Turn it off only for a backend known not to send them.
     */
    public ServerEndpoint withRequireStreamEnd(boolean value) {
        return with(f -> f.requireStreamEnd = value);
    }

    /** Sets the TCP connect timeout (default 10 s). */
    public ServerEndpoint withConnectTimeout(Duration value) {
        Objects.requireNonNull(value, "connectTimeout");
        if (value.isNegative() || value.isZero()) {
            throw InvalidSettingException.of("connectTimeout", value, "must be positive");
        }
        return with(f -> f.connectTimeout = value);
    }

    /**
     * Replaces where environment variables are read from; for tests that cannot set real ones.
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    public ServerEndpoint withEnvironment(UnaryOperator<String> value) {
        Objects.requireNonNull(value, "environment");
        return with(f -> f.environment = value);
    }

    /**
     * Records facts about how the server was started, for example a container's image and engine arguments;
     * they appear under {@code metadata} in {@link #describe()} and so in the run's JSON result. Never put a
     * secret here.
     *
     * @param value names and values, in the order given; replaces any metadata set before
     */
    public ServerEndpoint withMetadata(Map<String, Object> value) {
        Objects.requireNonNull(value, "metadata");
        Map<String, Object> copy = Collections.unmodifiableMap(new LinkedHashMap<>(value));
        return with(f -> f.metadata = copy);
    }

    /** Returns the facts recorded with {@link #withMetadata(Map)}, empty if none. */
    public Map<String, Object> metadata() {
        return fields.metadata;
    }

    /** Returns the server's root URL, without the API base path. */
    public URI baseUrl() {
        return fields.baseUrl;
    }

    /**
     * Returns the base URL as reports, messages and the console show it: user information and query values that
     * look like secrets (by name, such as {@code api_key}, or by shape) are replaced by {@code [redacted]}.
     */
    public String shownUrl() {
        return SecretRedaction.shownUrl(fields.baseUrl);
    }

    /** Returns the model name sent in every request. */
    public String model() {
        return fields.model;
    }

    /** Returns whether continuous usage statistics are requested. */
    public boolean continuousUsageStats() {
        return fields.continuousUsageStats;
    }

    /** Returns whether a success needs {@code [DONE]} and a finish reason. */
    public boolean requireStreamEnd() {
        return fields.requireStreamEnd;
    }

    /** Returns the TCP connect timeout. */
    public Duration connectTimeout() {
        return fields.connectTimeout;
    }

    /** Returns the name of the environment variable the API key is read from, if any. */
    public Optional<String> apiKeyVariable() {
        return Optional.ofNullable(fields.apiKeyVariable);
    }

    /**
     * Reads the API key now.
     *
     * @throws IllegalStateException if a variable is named but not set; the message names the variable only
     */
    public Optional<String> resolveApiKey() {
        if (fields.apiKeyVariable == null) {
            return Optional.empty();
        }
        String key = fields.environment.apply(fields.apiKeyVariable);
        if (key == null || key.isBlank()) {
            throw new IllegalStateException(
                    "the API key environment variable " + fields.apiKeyVariable + " is not set or is blank");
        }
        return Optional.of(key);
    }

    /** Describes this endpoint for a run's recorded configuration; never contains the key itself. */
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("base_url", shownUrl());
        description.put("api_base_path", fields.apiBasePath);
        description.put("model", fields.model);
        description.put("api_key_env", fields.apiKeyVariable);
        description.put("continuous_usage_stats", fields.continuousUsageStats);
        description.put("require_stream_end", fields.requireStreamEnd);
        if (!fields.metadata.isEmpty()) {
            description.put("metadata", fields.metadata);
        }
        return description;
    }

    @Override
    public String toString() {
        return shownUrl() + " (model " + fields.model + ")";
    }
}
