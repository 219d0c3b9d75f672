package dev.goodput.core.servermetrics.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One sample line of a Prometheus exposition: the series' name as written (with any {@code _total},
 * {@code _bucket}, {@code _sum} or {@code _count} suffix), its labels in the order written, and its value.
 *
 * @param name the sample's name, e.g. {@code vllm:e2e_request_latency_seconds_bucket}
 * @param labels the labels, unescaped, in the order written; unmodifiable
 * @param value the value; may be NaN or infinite
 */
public record Sample(String name, Map<String, String> labels, double value) {

    /** Checks the name and copies the labels into an unmodifiable map that keeps their order. */
    public Sample {
        Objects.requireNonNull(name, "name");
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }

    /** Returns the value of label {@code name}, or {@code null} when this sample does not carry it. */
    public String label(String name) {
        return labels.get(name);
    }
}
