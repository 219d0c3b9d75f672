package dev.goodput.core.result.internal;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Counts the streams of a run by the model each named (its chunks' top-level {@code model}), to say when they
 * named another than the one the run asked for. A server may serve whatever it has loaded: llama-server streams
 * {@code "model":"tiny4"} to a request for any model, so a gate with the preflight off measures a model nobody
 * meant. Not thread-safe: the {@link RunRecorder} holds its lock.
 */
final class ServedModels {

    /** Distinct names kept at most; the streams naming any further one are counted, not named. */
    static final int MAX_NAMES = 5;

    private final Map<String, Long> streamsByModel = new LinkedHashMap<>();
    private long unnamedOthers;

    /** Counts one stream that named {@code model}; a {@code null} (a stream that named none) is not counted. */
    void add(String model) {
        if (model == null) {
            return;
        }
        if (streamsByModel.containsKey(model) || streamsByModel.size() < MAX_NAMES) {
            streamsByModel.merge(model, 1L, Long::sum);
        } else {
            unnamedOthers++;
        }
    }

    /**
     * Returns a note when streams named another model than {@code asked}, with how many and which; empty when all
     * that named one named {@code asked} or a name that stands for it ({@link #standsFor}).
     */
    Optional<String> note(String asked) {
        long named = unnamedOthers;
        long other = unnamedOthers;
        Map<String, Long> others = new LinkedHashMap<>();
        for (Map.Entry<String, Long> entry : streamsByModel.entrySet()) {
            named += entry.getValue();
            if (!standsFor(entry.getKey(), asked)) {
                other += entry.getValue();
                others.put(entry.getKey(), entry.getValue());
            }
        }
        if (other == 0) {
            return Optional.empty();
        }
        String names = others.entrySet().stream()
                .map(entry -> "`" + entry.getKey() + "` (" + entry.getValue() + ")")
                .collect(Collectors.joining(", "));
        return Optional.of(String.format(
                Locale.ROOT,
                "%d of %d streams that named their model named another than the `%s` asked for: %s%s; the server"
                        + " may serve whatever it has loaded (the preflight checks its model list)",
                other,
                named,
                asked,
                names,
                unnamedOthers > 0 ? " and " + unnamedOthers + " naming others" : ""));
    }

    /**
     * Returns whether a served name stands for the asked one: the same, Ollama's {@code llama3:latest} for {@code
     * llama3}, or a dated snapshot such as OpenAI's {@code gpt-4o-2024-08-06} for {@code gpt-4o}.
     */
    static boolean standsFor(String served, String asked) {
        return served.equals(asked)
                || served.equals(asked + ":latest")
                || (served.startsWith(asked + "-")
                        && served.substring(asked.length() + 1).matches("\\d{4}-\\d{2}-\\d{2}"));
    }
}
