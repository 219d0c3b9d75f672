package dev.goodput.junit;

import dev.goodput.core.Goodput;
import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The {@code goodput.*} configuration parameters, read once per test, and the one list of the keys Goodput knows
 * ({@link #KNOWN_KEYS}). Nothing is silently ignored: a value that cannot be used fails the test with an error
 * naming the parameter and the value; a setting that needs another fails naming both; and a {@code goodput.*} key
 * that Goodput does not know, found among the system properties or in a {@code junit-platform.properties} on the
 * class path, fails with the nearest known key ({@link UnknownKeys}).
 *
 * <p>The parameters that are settings of a run are not kept here one by one: {@link #runSettings()} sets them on a
 * run's builder, each where it is read, so that a run setting is spelled once, by core's {@code Goodput.RunBuilder}.
 */
record GoodputConfiguration(
        Optional<String> serverUrl,
        Optional<String> serverModel,
        Optional<String> apiKeyEnv,
        Optional<String> apiBasePath,
        double loadScale,
        boolean failOnInconclusive,
        Path reportDirectory,
        Progress progress,
        boolean failOnUntrustworthyClient,
        boolean preflight,
        boolean serverMetrics,
        List<String> serverMetricsEndpoints,
        UnaryOperator<Goodput.RunBuilder> runSettings) {

    static final String SERVER_URL = "goodput.server.url";
    static final String SERVER_MODEL = "goodput.server.model";
    static final String SERVER_API_KEY_ENV = "goodput.server.api-key-env";
    static final String SERVER_API_BASE_PATH = "goodput.server.api-base-path";
    static final String LOAD_SCALE = "goodput.load.scale";
    static final String SLO_INCONCLUSIVE = "goodput.slo.inconclusive";
    static final String REPORT_DIR = "goodput.report.dir";
    static final String PROGRESS = "goodput.progress";
    static final String CLIENT_UNTRUSTWORTHY = "goodput.client.untrustworthy";
    static final String CLIENT_SEND_LAG_LIMIT = "goodput.client.send-lag-limit-ms";
    /** Scrape servers' metrics ({@code on}, the default) or not ({@code off}). */
    static final String SERVER_METRICS = "goodput.server-metrics";
    /** Exposition URLs every gate scrapes besides its own, comma-separated (a DCGM exporter in CI, say). */
    static final String SERVER_METRICS_ENDPOINTS = "goodput.server-metrics.endpoints";
    /** The HTTP client, {@code jdk} or {@code netty}; core checks the name ({@code Goodput.RunBuilder#transport}). */
    static final String CLIENT_TRANSPORT = "goodput.client.transport";
    /** The preflight check's setting (read where that check lives). */
    static final String PREFLIGHT = "goodput.preflight";
    /** How long the preflight waits for a server still loading its model, in seconds ({@code 0}: not at all). */
    static final String PREFLIGHT_LOADING_WAIT = "goodput.preflight.loading-wait-s";
    /** Judge objectives only inside the detected steady-state window ({@code on}) or the whole window ({@code off}). */
    static final String SLO_STEADY_STATE_ONLY = "goodput.slo.steady-state-only";
    /** The history file each run appends to (read by {@link GateHistory}; unset, no history). */
    static final String HISTORY_FILE = "goodput.history.file";
    /** The commit a history entry records, over {@code GITHUB_SHA} and {@code CI_COMMIT_SHA}. */
    static final String HISTORY_COMMIT = "goodput.history.commit";
    /** The branch a history entry records, over {@code GITHUB_REF_NAME} and {@code CI_COMMIT_REF_NAME}. */
    static final String HISTORY_BRANCH = "goodput.history.branch";
    /** Read by {@code goodput-testcontainers} ({@code GoodputMockServerContainer.BASE_IMAGE_PROPERTY}). */
    static final String MOCK_SERVER_BASE_IMAGE = "goodput.mock-server.base-image";

    /**
     * Every {@code goodput.*} key that Goodput reads, here and in its other modules. A key outside this list fails
     * the test that finds it; add a new key here when adding its parameter.
     */
    static final Set<String> KNOWN_KEYS = union(
            union(RegressionSettings.KEYS, ShardSettings.KEYS),
            Set.of(
                    SERVER_URL,
                    SERVER_MODEL,
                    SERVER_API_KEY_ENV,
                    SERVER_API_BASE_PATH,
                    LOAD_SCALE,
                    SLO_INCONCLUSIVE,
                    REPORT_DIR,
                    PROGRESS,
                    CLIENT_UNTRUSTWORTHY,
                    CLIENT_SEND_LAG_LIMIT,
                    CLIENT_TRANSPORT,
                    PREFLIGHT,
                    PREFLIGHT_LOADING_WAIT,
                    SLO_STEADY_STATE_ONLY,
                    SERVER_METRICS,
                    SERVER_METRICS_ENDPOINTS,
                    HISTORY_FILE,
                    HISTORY_COMMIT,
                    HISTORY_BRANCH,
                    MOCK_SERVER_BASE_IMAGE));

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    /** Whether to show a progress line. */
    enum Progress {
        AUTO,
        ON,
        OFF
    }

    static GoodputConfiguration from(ExtensionContext context) {
        UnknownKeys.check(KNOWN_KEYS);
        Optional<String> url = parameter(context, SERVER_URL);
        Optional<String> model = parameter(context, SERVER_MODEL);
        Optional<String> apiKeyEnv = parameter(context, SERVER_API_KEY_ENV);
        // Not parameter(): an empty value is meaningful here (the API at the server's root).
        Optional<String> apiBasePath =
                context.getConfigurationParameter(SERVER_API_BASE_PATH).map(String::trim);
        if (url.isPresent() && model.isEmpty()) {
            throw new ExtensionConfigurationException("configuration parameter " + SERVER_URL + " = '" + url.get()
                    + "' needs " + SERVER_MODEL + " to name the model to request");
        }
        if (url.isEmpty()) {
            needsServerUrl(SERVER_MODEL, model, "the model to request from that server");
            needsServerUrl(SERVER_API_KEY_ENV, apiKeyEnv, "the environment variable with that server's API key");
            needsServerUrl(SERVER_API_BASE_PATH, apiBasePath, "the path of that server's API");
        }
        double scale =
                parameter(context, LOAD_SCALE).map(GoodputConfiguration::scale).orElse(1.0);
        boolean failOnInconclusive = parameter(context, SLO_INCONCLUSIVE)
                .map(GoodputConfiguration::failOnInconclusive)
                .orElse(true);
        Path reports = parameter(context, REPORT_DIR).map(Path::of).orElse(Path.of("target", "goodput"));
        Progress progress =
                parameter(context, PROGRESS).map(GoodputConfiguration::progress).orElse(Progress.AUTO);
        boolean failOnUntrustworthyClient = parameter(context, CLIENT_UNTRUSTWORTHY)
                .map(value -> failOrWarn(CLIENT_UNTRUSTWORTHY, value))
                .orElse(true);
        Duration sendLagLimit = parameter(context, CLIENT_SEND_LAG_LIMIT)
                .map(GoodputConfiguration::sendLagLimit)
                .orElse(RunSpec.DEFAULT_SEND_LAG_LIMIT);
        boolean preflight = parameter(context, PREFLIGHT)
                .map(value -> onOrOff(PREFLIGHT, value))
                .orElse(true);
        boolean serverMetrics = parameter(context, SERVER_METRICS)
                .map(value -> onOrOff(SERVER_METRICS, value))
                .orElse(true);
        List<String> serverMetricsEndpoints = parameter(context, SERVER_METRICS_ENDPOINTS)
                .map(value -> java.util.Arrays.stream(value.split(","))
                        .map(String::trim)
                        .filter(endpoint -> !endpoint.isEmpty())
                        .toList())
                .orElse(List.of());
        Optional<String> transport = parameter(context, CLIENT_TRANSPORT).map(GoodputConfiguration::transport);
        boolean steadyStateOnly = parameter(context, SLO_STEADY_STATE_ONLY)
                .map(value -> onOrOff(SLO_STEADY_STATE_ONLY, value))
                .orElse(false);
        Duration preflightLoadingWait = parameter(context, PREFLIGHT_LOADING_WAIT)
                .map(GoodputConfiguration::preflightLoadingWait)
                .orElse(RunSpec.DEFAULT_PREFLIGHT_LOADING_WAIT);
        return new GoodputConfiguration(
                url,
                model,
                apiKeyEnv,
                apiBasePath,
                scale,
                failOnInconclusive,
                reports,
                progress,
                failOnUntrustworthyClient,
                preflight,
                serverMetrics,
                serverMetricsEndpoints,
                run -> {
                    // Unset, the builder's default is the system property of the same name, which JUnit would have
                    // returned.
                    transport.ifPresent(run::transport);
                    return run.sendLagLimit(sendLagLimit)
                            .preflight(preflight)
                            .preflightLoadingWait(preflightLoadingWait)
                            .failOnTooFewSamples(failOnInconclusive)
                            .judgeSteadyStateOnly(steadyStateOnly);
                });
    }

    private static Duration preflightLoadingWait(String value) {
        try {
            double seconds = Double.parseDouble(value);
            if (seconds >= 0 && seconds <= 86_400) {
                return Duration.ofMillis(Math.round(seconds * 1_000));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ExtensionConfigurationException("configuration parameter " + PREFLIGHT_LOADING_WAIT + " = '" + value
                + "' is not a number of seconds from 0 to 86400 (the default is "
                + RunSpec.DEFAULT_PREFLIGHT_LOADING_WAIT.toSeconds() + "; 0 does not wait)");
    }

    /** Refuses a server setting without {@code goodput.server.url}: it would apply to no server at all. */
    private static void needsServerUrl(String key, Optional<String> value, String what) {
        if (value.isPresent()) {
            throw new ExtensionConfigurationException("configuration parameter " + key + " = '" + value.get()
                    + "' needs " + SERVER_URL + ": it names " + what + ", so without a URL it would be ignored;"
                    + " set " + SERVER_URL + " too, or remove " + key);
        }
    }

    /** Returns a configuration parameter, trimmed; empty when unset or blank. */
    static Optional<String> parameter(ExtensionContext context, String key) {
        return context.getConfigurationParameter(key).map(String::trim).filter(value -> !value.isEmpty());
    }

    private static double scale(String value) {
        try {
            double scale = Double.parseDouble(value);
            if (scale > 0 && Double.isFinite(scale)) {
                return scale;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ExtensionConfigurationException("configuration parameter " + LOAD_SCALE + " = '" + value
                + "' is not a number above 0 (for example 0.2 for a quick run, 5 for a long one)");
    }

    private static boolean failOnInconclusive(String value) {
        return failOrWarn(SLO_INCONCLUSIVE, value);
    }

    /** Reads a {@code fail} / {@code warn} parameter, refusing anything else with the key and value. */
    static boolean failOrWarn(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "fail" -> true;
            case "warn" -> false;
            default ->
                throw new ExtensionConfigurationException(
                        "configuration parameter " + key + " = '" + value + "' must be 'fail' or 'warn'");
        };
    }

    private static boolean onOrOff(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default ->
                throw new ExtensionConfigurationException(
                        "configuration parameter " + key + " = '" + value + "' must be 'on' or 'off'");
        };
    }

    private static Duration sendLagLimit(String value) {
        try {
            double millis = Double.parseDouble(value);
            if (millis > 0 && Double.isFinite(millis) && millis < 3_600_000) {
                return Duration.ofNanos(Math.max(1, Math.round(millis * 1e6)));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ExtensionConfigurationException("configuration parameter " + CLIENT_SEND_LAG_LIMIT + " = '" + value
                + "' is not a number of milliseconds above 0 (the default is 50)");
    }

    /** Checks a transport name as core does (the transports on the class path), before any server is started. */
    private static String transport(String value) {
        try {
            // Core's builder is where the names are known; the endpoint only makes the builder.
            Goodput.newRun(ServerEndpoint.of("http://127.0.0.1", "any")).transport(value);
            return value;
        } catch (InvalidSettingException e) {
            throw new ExtensionConfigurationException(
                    "configuration parameter " + CLIENT_TRANSPORT + " = '" + value + "' " + e.requirement(), e);
        }
    }

    private static Progress progress(String value) {
        try {
            return Progress.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(
                    "configuration parameter " + PROGRESS + " = '" + value + "' must be 'auto', 'on' or 'off'");
        }
    }
}
