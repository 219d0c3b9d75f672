package dev.goodput.mock.internal.cli;

import dev.goodput.mock.Fault;
import dev.goodput.mock.Faults;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.SimulatedMetrics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Parses the command line of {@code goodput-mock-server.jar} into a {@link MockServerConfig}. Options take
 * {@code --name value} or {@code --name=value}; names follow {@code vllm serve} where vLLM has the knob.
 */
final class CliOptions {

    /** A command line that can't be used; the message names the option and the value. */
    static final class CliException extends Exception {
        private static final long serialVersionUID = 1L;

        CliException(String message) {
            super(message);
        }
    }

    /** Default port, vLLM's. */
    static final int DEFAULT_PORT = 8000;

    private CliOptions() {}

    /** Returns whether the command line asks for help. */
    static boolean wantsHelp(String[] args) {
        for (String arg : args) {
            if (arg.equals("--help") || arg.equals("-h")) {
                return true;
            }
        }
        return false;
    }

    static MockServerConfig parse(String[] args) throws CliException {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new CliException("unexpected argument '" + arg + "' (options start with --)");
            }
            String name = arg.substring(2);
            String value = null;
            int equals = name.indexOf('=');
            if (equals >= 0) {
                value = name.substring(equals + 1);
                name = name.substring(0, equals);
            }
            Option option = Option.byName(name);
            if (option == null) {
                throw new CliException("unknown option --" + name);
            }
            if (option.isFlag()) {
                if (value != null) {
                    throw new CliException("--" + name + " takes no value, got '" + value + "'");
                }
                value = "true";
            } else if (value == null) {
                if (i + 1 >= args.length) {
                    throw new CliException("--" + name + " needs a value: " + option.valueName);
                }
                value = args[++i];
            }
            values.put(name, value);
        }
        return toConfig(values);
    }

    private static MockServerConfig toConfig(Map<String, String> v) throws CliException {
        try {
            PerformanceModel model = model(v);
            long seed = v.containsKey("seed") ? number(v, "seed", Long::parseLong) : 0L;
            if (v.containsKey("seed")) {
                model = model.withSeed(seed);
            }
            Faults faults = Faults.none()
                    .withSeed(v.containsKey("fault-seed") ? number(v, "fault-seed", Long::parseLong) : seed);
            for (Fault fault : Fault.values()) {
                String name = "fault-" + fault.cliName();
                if (fault != Fault.NONE && v.containsKey(name)) {
                    faults = faults.withRate(fault, number(v, name, Double::parseDouble));
                }
            }
            if (v.containsKey("fault-stall-ms")) {
                faults = faults.withStallDuration(Duration.ofMillis(number(v, "fault-stall-ms", Long::parseLong)));
            }
            if (v.containsKey("fault-retry-after")) {
                faults = faults.withRetryAfter(Duration.ofSeconds(number(v, "fault-retry-after", Long::parseLong)));
            }
            faults = faults.withCloseAfterStreams(v.containsKey("fault-close-after-stream"));
            MockServerConfig.Builder config = MockServerConfig.builder()
                    .host(v.getOrDefault("host", "127.0.0.1"))
                    .port(v.containsKey("port") ? number(v, "port", Integer::parseInt) : DEFAULT_PORT)
                    .modelName(v.getOrDefault("model", MockServerConfig.DEFAULT_MODEL_NAME))
                    .performanceModel(model)
                    .faults(faults)
                    .seed(seed);
            if (v.containsKey("max-connections")) {
                config.maxConnections(number(v, "max-connections", Integer::parseInt));
            }
            if (v.containsKey("ground-truth-capacity")) {
                config.groundTruthCapacity(number(v, "ground-truth-capacity", Integer::parseInt));
            }
            if (v.containsKey("writer-threads")) {
                config.writerThreads(number(v, "writer-threads", Integer::parseInt));
            }
            SimulatedMetrics simulated = SimulatedMetrics.defaults();
            simulated = simulated
                    .withGpuWatts(
                            number(v, "gpu-idle-watts", Double::parseDouble, simulated.gpuIdleWatts()),
                            number(v, "gpu-busy-watts", Double::parseDouble, simulated.gpuBusyWatts()))
                    .withDeprecatedVllmNames(v.containsKey("deprecated-metric-names"));
            config.simulatedMetrics(simulated);
            return config.build();
        } catch (IllegalArgumentException e) {
            throw new CliException(e.getMessage());
        }
    }

    private static PerformanceModel model(Map<String, String> v) throws CliException {
        PerformanceModel model = constantTimes(v);
        if (v.containsKey("max-num-seqs")) {
            model = model.withMaxNumSeqs(number(v, "max-num-seqs", Integer::parseInt));
        }
        if (v.containsKey("max-num-batched-tokens")) {
            model = model.withMaxNumBatchedTokens(number(v, "max-num-batched-tokens", Integer::parseInt));
        }
        if (v.containsKey("max-model-len")) {
            model = model.withMaxModelLen(number(v, "max-model-len", Integer::parseInt));
        }
        if (v.containsKey("kv-cache-tokens")) {
            model = model.withKvCacheTokens(number(v, "kv-cache-tokens", Long::parseLong));
        }
        if (v.containsKey("enable-prefix-caching") && v.containsKey("no-enable-prefix-caching")) {
            throw new CliException("--enable-prefix-caching and --no-enable-prefix-caching exclude each other");
        }
        if (v.containsKey("enable-prefix-caching") || v.containsKey("no-enable-prefix-caching")) {
            model = model.withPrefixCaching(v.containsKey("enable-prefix-caching"));
        }
        if (v.containsKey("stream-interval")) {
            model = model.withStreamInterval(number(v, "stream-interval", Integer::parseInt));
        }
        if (v.containsKey("tokens-per-chunk")) {
            model = model.withTokensPerChunk(number(v, "tokens-per-chunk", Integer::parseInt));
        }
        if (v.containsKey("jitter")) {
            model = model.withJitter(number(v, "jitter", Double::parseDouble));
        }
        if (v.containsKey("mean-output-tokens")) {
            model = model.withMeanOutputTokens(number(v, "mean-output-tokens", Integer::parseInt));
        }
        return model;
    }

    /**
     * The model from {@code --preset} and {@code --fixed-ttft-ms}/{@code --fixed-tpot-ms}. The times alone give the
     * {@code fixed} model (an unset one is 0). With {@code --preset fixed} or {@code --preset single-slot} they
     * replace that preset's times (an unset one keeps the preset's), as {@link PerformanceModel#fixed} and
     * {@link PerformanceModel#singleSlot} do in code. Another preset's times follow from its hardware: refused.
     */
    private static PerformanceModel constantTimes(Map<String, String> v) throws CliException {
        boolean times = v.containsKey("fixed-ttft-ms") || v.containsKey("fixed-tpot-ms");
        if (!v.containsKey("preset")) {
            return times
                    ? PerformanceModel.fixed(millis(v, "fixed-ttft-ms", 0), millis(v, "fixed-tpot-ms", 0))
                    : PerformanceModel.defaultModel();
        }
        String preset = v.get("preset");
        PerformanceModel model = PerformanceModel.preset(preset);
        if (!times) {
            return model;
        }
        Duration ttft = millis(v, "fixed-ttft-ms", model.constantTtftNanos());
        Duration tpot = millis(v, "fixed-tpot-ms", model.constantTpotNanos());
        return switch (preset) {
            case "fixed" -> PerformanceModel.fixed(ttft, tpot);
            case "single-slot" -> PerformanceModel.singleSlot(ttft, tpot);
            default ->
                throw new CliException("--fixed-ttft-ms and --fixed-tpot-ms set the times of --preset fixed or"
                        + " --preset single-slot; the times of " + preset + " follow from its hardware");
        };
    }

    private static Duration millis(Map<String, String> v, String name, long absentNanos) throws CliException {
        Double millis = number(v, name, Double::parseDouble, null);
        return Duration.ofNanos(millis == null ? absentNanos : Math.round(1e6 * millis));
    }

    private static <T> T number(Map<String, String> v, String name, Function<String, T> parse) throws CliException {
        return number(v, name, parse, null);
    }

    private static <T> T number(Map<String, String> v, String name, Function<String, T> parse, T absent)
            throws CliException {
        String text = v.get(name);
        if (text == null) {
            return absent;
        }
        try {
            return parse.apply(text.trim());
        } catch (NumberFormatException e) {
            throw new CliException("--" + name + " must be a number, got '" + text + "'");
        }
    }
}
