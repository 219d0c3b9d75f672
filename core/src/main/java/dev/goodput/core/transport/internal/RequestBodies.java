package dev.goodput.core.transport.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.workload.ApiKind;
import dev.goodput.core.workload.ChatMessage;
import dev.goodput.core.workload.RequestSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
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
        return spec.extraBody().isEmpty()
                ? writtenBody(spec, model, continuousUsageStats)
                : mappedBody(spec, model, continuousUsageStats);
    }

    /**
     * The body of a spec without extra fields, written field by field: the scheduler thread builds one per request
     * before it is sent, and a map serialised through data binding cost about a third of that thread's time at 200
     * requests/s. The same bytes as {@link #mappedBody}, as {@code RequestBodiesTest} checks.
     */
    static byte[] writtenBody(RequestSpec spec, String model, boolean continuousUsageStats) {
        ByteArrayBuilder out = new ByteArrayBuilder(256);
        try (JsonGenerator json = MAPPER.getFactory().createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("model", model);
            if (spec.api() == ApiKind.CHAT) {
                json.writeArrayFieldStart("messages");
                for (ChatMessage message : spec.messages()) {
                    json.writeStartObject();
                    json.writeStringField("role", message.role());
                    json.writeStringField("content", message.content());
                    json.writeEndObject();
                }
                json.writeEndArray();
            } else {
                json.writeStringField("prompt", spec.prompt());
            }
            json.writeNumberField("max_tokens", spec.maxTokens());
            if (spec.minTokens() != null) {
                json.writeNumberField("min_tokens", spec.minTokens());
            }
            if (spec.ignoreEos() != null) {
                json.writeBooleanField("ignore_eos", spec.ignoreEos());
            }
            if (spec.temperature() != null) {
                json.writeNumberField("temperature", spec.temperature());
            }
            if (spec.seed() != null) {
                json.writeNumberField("seed", spec.seed());
            }
            json.writeObjectFieldStart("stream_options");
            json.writeBooleanField("include_usage", true);
            if (continuousUsageStats) {
                json.writeBooleanField("continuous_usage_stats", true);
            }
            json.writeEndObject();
            json.writeBooleanField("stream", true);
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("could not write a request body in memory", e); // cannot happen
        }
        return out.toByteArray();
    }

    /** The body of any spec, through a map, so that extra fields replace the standard ones in place. */
    static byte[] mappedBody(RequestSpec spec, String model, boolean continuousUsageStats) {
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
