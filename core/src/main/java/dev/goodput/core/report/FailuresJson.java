package dev.goodput.core.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.result.FailureBreakdown;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the {@code failures} block of the JSON result: why the requests that did not succeed did not, warm-up and
 * cool-down included.
 *
 * <pre>{@code
 * "failures" : {
 *   "requests" : 400,
 *   "includes_warmup_and_cooldown" : true,
 *   "by_outcome" : { "failed" : 400, "timed_out" : 0, "cancelled" : 0 },
 *   "distinct_reasons" : 1,
 *   "reasons" : [ {
 *     "outcome" : "failed",
 *     "reason" : "connection refused or unreachable (ConnectException)",
 *     "count" : 400,
 *     "example_indices" : [ 0, 1, 2 ]
 *   } ]
 * }
 * }</pre>
 *
 * {@code reasons} lists the {@value #MOST_REASONS} most frequent; {@code distinct_reasons} counts them all.
 */
final class FailuresJson {

    /** The most reasons the block lists. */
    static final int MOST_REASONS = 100;

    private FailuresJson() {}

    static void write(JsonGenerator json, FailureBreakdown failures) throws IOException {
        json.writeObjectFieldStart("failures");
        json.writeNumberField("requests", failures.requests());
        json.writeBooleanField("includes_warmup_and_cooldown", true);
        json.writeObjectFieldStart("by_outcome");
        for (Map.Entry<Outcome, Long> entry : failures.byOutcome().entrySet()) {
            json.writeNumberField(entry.getKey().name().toLowerCase(Locale.ROOT), entry.getValue());
        }
        json.writeEndObject();
        json.writeNumberField("distinct_reasons", failures.reasons().size());
        json.writeArrayFieldStart("reasons");
        for (FailureBreakdown.Reason reason : failures.top(MOST_REASONS)) {
            json.writeStartObject();
            json.writeStringField("outcome", reason.outcome().name().toLowerCase(Locale.ROOT));
            json.writeStringField("reason", reason.text());
            json.writeNumberField("count", reason.count());
            json.writeArrayFieldStart("example_indices");
            for (long index : reason.examples()) {
                json.writeNumber(index);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }
}
