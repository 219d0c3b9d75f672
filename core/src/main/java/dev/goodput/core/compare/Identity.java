package dev.goodput.core.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.result.RunResult;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** A run's identity, what must match for two runs to be compared, and how two identities differ. */
final class Identity {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Identity() {}

    /**
     * Returns what must match between two runs for their figures to be compared: the workload and load as the
     * JSON result describes them, the server with the port of a loopback address left out (test fixtures pick a
     * free port each run), and the Goodput version.
     */
    static Map<String, String> of(RunResult result) {
        Map<String, String> identity = new LinkedHashMap<>();
        identity.put("workload", json(result.spec().workload().describe()));
        identity.put("load", json(result.spec().load().describe()));
        Map<String, Object> server = new LinkedHashMap<>(result.spec().server().describe());
        server.put("base_url", withoutLoopbackPort(String.valueOf(server.get("base_url"))));
        identity.put("server", json(server));
        identity.put("goodput_version", result.environment().goodputVersion());
        return identity;
    }

    static String withoutLoopbackPort(String url) {
        URI uri = URI.create(url);
        String host = uri.getHost();
        boolean loopback = "localhost".equals(host) || "127.0.0.1".equals(host) || "[::1]".equals(host);
        if (!loopback || uri.getPort() < 0) {
            return url;
        }
        return uri.getScheme() + "://" + host + ":<port>" + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot describe " + value, e);
        }
    }

    /** Lists the differing fields of two JSON descriptions, or the two values when they are not JSON objects. */
    static List<String> describeDifference(String key, String before, String now) {
        Map<String, String> left = flatten(before);
        Map<String, String> right = flatten(now);
        if (left == null || right == null) {
            return List.of(key + ": baseline " + before + ", current " + now);
        }
        List<String> differences = new ArrayList<>();
        Set<String> fields = new LinkedHashSet<>(left.keySet());
        fields.addAll(right.keySet());
        for (String field : fields) {
            if (!Objects.equals(left.get(field), right.get(field))) {
                differences.add(key + "." + field + ": baseline " + left.getOrDefault(field, "(absent)") + ", current "
                        + right.getOrDefault(field, "(absent)"));
            }
        }
        return differences;
    }

    private static Map<String, String> flatten(String json) {
        if (json == null || !json.startsWith("{")) {
            return null;
        }
        try {
            Map<String, String> flat = new LinkedHashMap<>();
            flatten("", JSON.readTree(json), flat);
            return flat;
        } catch (java.io.IOException e) {
            return null;
        }
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> flat) {
        if (node.isObject()) {
            node.fields()
                    .forEachRemaining(entry -> flatten(
                            prefix.isEmpty() ? entry.getKey() : prefix + "." + entry.getKey(), entry.getValue(), flat));
        } else {
            flat.put(prefix, node.isTextual() ? node.textValue() : node.toString());
        }
    }
}
