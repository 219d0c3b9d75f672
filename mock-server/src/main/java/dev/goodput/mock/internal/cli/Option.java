package dev.goodput.mock.internal.cli;

import dev.goodput.mock.Fault;
import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.List;

/** The command line's options, with the help text {@code --help} prints. */
final class Option {

    final String name;
    final String valueName;
    final String help;

    private Option(String name, String valueName, String help) {
        this.name = name;
        this.valueName = valueName;
        this.help = help;
    }

    boolean isFlag() {
        return valueName == null;
    }

    static final List<Option> ALL = build();

    private static List<Option> build() {
        List<Option> options = new ArrayList<>();
        options.add(new Option("host", "H", "address to listen on (default 127.0.0.1, loopback only)"));
        options.add(new Option("port", "N", "port to listen on, 0 for a free one (default 8000)"));
        options.add(new Option("model", "NAME", "served model name (default goodput/mock-llama-3-8b)"));
        options.add(new Option(
                "preset",
                "NAME",
                "performance preset: " + String.join(", ", PerformanceModel.presetNames()) + " (default the first)"));
        options.add(new Option(
                "fixed-ttft-ms",
                "MS",
                "constant time to first token: alone the fixed model, or for --preset fixed or" + " single-slot"));
        options.add(new Option(
                "fixed-tpot-ms",
                "MS",
                "constant time per output token: alone the fixed model, or for --preset fixed" + " or single-slot"));
        options.add(new Option("max-num-seqs", "N", "most sequences in the running batch"));
        options.add(new Option("max-num-batched-tokens", "N", "token budget per engine step"));
        options.add(new Option("max-model-len", "N", "context limit, prompt plus output tokens"));
        options.add(new Option("kv-cache-tokens", "N", "KV-cache capacity in tokens"));
        options.add(new Option("enable-prefix-caching", null, "turn automatic prefix caching on"));
        options.add(new Option("no-enable-prefix-caching", null, "turn automatic prefix caching off"));
        options.add(new Option(
                "stream-interval",
                "N",
                "tokens buffered per stream chunk, as vLLM's --stream-interval (same token rate)"));
        options.add(new Option(
                "tokens-per-chunk", "K", "tokens per engine step and chunk, as speculative decoding (faster decode)"));
        options.add(new Option("jitter", "F", "random step-time jitter, a fraction such as 0.05"));
        options.add(new Option("mean-output-tokens", "N", "mean natural output length without ignore_eos"));
        options.add(new Option("seed", "S", "seed of the model's draws, outputs and faults (default 0)"));
        for (Fault fault : Fault.values()) {
            if (fault != Fault.NONE) {
                options.add(new Option(
                        "fault-" + fault.cliName(), "RATE", "fraction 0..1 of requests with fault " + fault.name()));
            }
        }
        options.add(new Option("fault-stall-ms", "MS", "how long a stall fault pauses a stream (default 2000)"));
        options.add(new Option("fault-retry-after", "S", "Retry-After seconds on 429 and 503 faults"));
        options.add(new Option(
                "fault-close-after-stream",
                null,
                "close the connection after each streamed response while advertising keep-alive (as llama.cpp)"));
        options.add(new Option("fault-seed", "S", "seed of the fault draws (default --seed)"));
        options.add(new Option("max-connections", "N", "most open connections (default 4096)"));
        options.add(new Option("ground-truth-capacity", "N", "most request records kept (default 10000)"));
        options.add(new Option(
                "writer-threads", "N", "threads writing stream chunks (default 0: the engine thread writes)"));
        options.add(new Option(
                "gpu-idle-watts", "W", "simulated GPU power when the engine is idle, DCGM metrics (default 70)"));
        options.add(new Option(
                "gpu-busy-watts", "W", "simulated GPU power when the engine steps all the time (default 350)"));
        options.add(new Option(
                "deprecated-metric-names",
                null,
                "also export vllm:gpu_cache_usage_perc and vllm:gpu_prefix_cache_*, as vLLM 0.10 did"));
        options.add(new Option("help", null, "print this help and exit"));
        return List.copyOf(options);
    }

    static Option byName(String name) {
        for (Option option : ALL) {
            if (option.name.equals(name)) {
                return option;
            }
        }
        return null;
    }

    static String usage() {
        StringBuilder usage =
                new StringBuilder("Usage: java -jar goodput-mock-server.jar [--port 8000] [--preset NAME] [options]\n\n"
                        + "A simulated vLLM server speaking OpenAI's API (/v1/completions, /v1/chat/completions,\n"
                        + "/v1/models, /health, /version, /metrics, /debug/requests; POST /debug/reset empties its\n"
                        + "caches and counters between trials).\n\nOptions:\n");
        for (Option option : ALL) {
            String left = "  --" + option.name + (option.isFlag() ? "" : " " + option.valueName);
            usage.append(String.format("%-34s %s%n", left, option.help));
        }
        usage.append("\nPresets: ")
                .append(String.join(", ", PerformanceModel.presetNames()))
                .append('\n');
        return usage.toString();
    }
}
