package dev.goodput.core.transport.internal.sse;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.goodput.core.record.ServerTimings;
import java.io.IOException;

/**
 * Reads the server's own timing of a request, llama.cpp's {@code timings} object. It is informational, so it is
 * read leniently: an object of another shape, or one without both the prompt and the generation parts, gives no
 * timing rather than a malformed event.
 */
final class TimingsReader {

    private TimingsReader() {}

    /** Reads the value whose first token is {@code value}; returns {@code null} when it is not a usable timing. */
    static ServerTimings read(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return null;
        }
        int cachedPromptTokens = -1;
        int promptTokens = -1;
        double promptMillis = Double.NaN;
        int predictedTokens = -1;
        double predictedMillis = Double.NaN;
        double predictedMillisPerToken = Double.NaN;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken field = parser.nextToken();
            if (!field.isNumeric()) {
                parser.skipChildren();
                continue;
            }
            switch (name) {
                case "cache_n" -> cachedPromptTokens = parser.getValueAsInt(-1);
                case "prompt_n" -> promptTokens = parser.getValueAsInt(-1);
                case "prompt_ms" -> promptMillis = parser.getValueAsDouble(Double.NaN);
                case "predicted_n" -> predictedTokens = parser.getValueAsInt(-1);
                case "predicted_ms" -> predictedMillis = parser.getValueAsDouble(Double.NaN);
                case "predicted_per_token_ms" -> predictedMillisPerToken = parser.getValueAsDouble(Double.NaN);
                default -> {
                    // Rates are derived from the figures above.
                }
            }
        }
        if (promptTokens < 0 || predictedTokens < 0 || !(promptMillis >= 0) || !(predictedMillis >= 0)) {
            return null;
        }
        return new ServerTimings(
                cachedPromptTokens,
                promptTokens,
                promptMillis,
                predictedTokens,
                predictedMillis,
                predictedMillisPerToken);
    }
}
