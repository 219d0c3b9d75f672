package dev.goodput.core.internal.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.ApiKind;
import dev.goodput.core.ChatMessage;
import dev.goodput.core.RequestSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes the JSON body of a streaming completion request. */
public final class RequestBodies {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RequestBodies() {}

    /**
     * Returns the body for {@code spec}: the model, the prompt or messages, the sampling fields the spec
     * sets, the extra fields, and always {@code stream: true} with {@code stream_options.include_usage} (plus
     * {@code continuous_usage_stats} when asked for). Extra fields may override everything except
     * {@code stream}, which a streaming measurement cannot do without.
     */
    public static byte[] streamingBody(RequestSpec spec, String model, boolean continuousUsageStats) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", model);
        if (spec.api() == ApiKind.CHAT) {
            List<Map<String, String>> messages = new ArrayList<>(spec.messages().size());
            for (ChatMessage message : spec.messages()) {
                Map<String, String> entry = new LinkedHashMap<>();
                entry.put("role", message.role());
                entry.put("content", message.content());
                messages.add(entry);
            }
            body.put("messages", messages);
        } else {
            body.put("prompt", spec.prompt());
        }
        body.put("max_tokens", spec.maxTokens());
        putIfSet(body, "min_tokens", spec.minTokens());
        putIfSet(body, "ignore_eos", spec.ignoreEos());
        putIfSet(body, "temperature", spec.temperature());
        putIfSet(body, "seed", spec.seed());
        Map<String, Object> streamOptions = new LinkedHashMap<>();
        streamOptions.put("include_usage", true);
        if (continuousUsageStats) {
            streamOptions.put("continuous_usage_stats", true);
        }
        body.put("stream_options", streamOptions);
        body.putAll(spec.extraBody());
        body.remove("stream");
        body.put("stream", true);
        try {
            return MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("extra body fields cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    private static void putIfSet(Map<String, Object> body, String name, Object value) {
        if (value != null) {
            body.put(name, value);
        }
    }
}
