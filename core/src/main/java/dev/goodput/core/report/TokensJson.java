package dev.goodput.core.report;

import static dev.goodput.core.report.JsonReport.lowerKeys;
import static dev.goodput.core.report.JsonReport.number;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.TokenComparison;
import java.io.IOException;

/** The {@code tokens} and {@code engine_timings} blocks of the JSON report. */
final class TokensJson {

    private TokensJson() {}

    static void write(JsonGenerator json, RunResult result) throws IOException {
        var tokens = result.tokens();
        json.writeObjectFieldStart("tokens");
        json.writeNumberField("input_tokens", tokens.inputTokens());
        json.writeNumberField("output_tokens", tokens.outputTokens());
        json.writeObjectField("token_count_source", lowerKeys(tokens.outputTokenSources()));
        writeComparison(json, "prompt_server_vs_client", tokens.prompt());
        writeComparison(json, "output_server_vs_client", tokens.output());
        json.writeObjectField("finish_reasons", tokens.finishReasons());
        if (tokens.ignoreEosRequests() >= 0) {
            json.writeNumberField("ignore_eos_requests", tokens.ignoreEosRequests());
            json.writeNumberField("shorter_than_asked", tokens.shorterThanAsked());
        }
        json.writeEndObject();
        EngineTimings engine = EngineTimings.of(result);
        if (engine != null) {
            json.writeObjectFieldStart("engine_timings");
            json.writeNumberField("requests", engine.requests);
            number(json, "prompt_ms_p50", engine.promptMillisP50);
            number(json, "prompt_ms_p99", engine.promptMillisP99);
            number(json, "ms_per_token_p50", engine.millisPerTokenP50);
            number(json, "ms_per_token_p99", engine.millisPerTokenP99);
            json.writeEndObject();
        }
    }

    private static void writeComparison(JsonGenerator json, String name, TokenComparison comparison)
            throws IOException {
        json.writeObjectFieldStart(name);
        json.writeNumberField("compared", comparison.compared());
        json.writeNumberField("differing", comparison.differing());
        number(json, "mean_difference", comparison.meanDifference());
        json.writeNumberField("max_absolute_difference", comparison.maxAbsoluteDifference());
        json.writeEndObject();
    }
}
