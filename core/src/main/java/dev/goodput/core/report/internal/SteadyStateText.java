package dev.goodput.core.report.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.SteadyState;
import java.io.IOException;
import java.util.Locale;

/** The steady-state window in the reports: one console line and the JSON block. */
public final class SteadyStateText {

    private SteadyStateText() {}

    /**
     * Returns the console line, for example {@code "steady state: 1.21 s .. 19.80 s of the window (18.59 s), 912 of
     * 1000 measured requests (91%) inside; offered 100.02 req/s, achieved 99.87 req/s, mean in flight 199.6"}, with
     * the window's times counted from the first measured request's intended start. A closed loop has no offered
     * rate: its line gives the rates at which requests started and ended, and the mean in flight of its users.
     */
    public static String line(RunResult result) {
        SteadyState steady = result.load().steadyState();
        String judged = result.spec().judgeSteadyStateOnly() ? "; objectives judged inside it" : "";
        if (!steady.found()) {
            return "steady state: none, " + steady.reason()
                    + (result.spec().judgeSteadyStateOnly() ? "; objectives inconclusive" : "");
        }
        long origin = result.load().windowStartNanos();
        String window = String.format(
                Locale.ROOT,
                "steady state: %.2f s .. %.2f s of the window (%.2f s), %d of %d measured requests (%.0f%%) inside;",
                (steady.startNanos() - origin) / 1e9,
                (steady.endNanos() - origin) / 1e9,
                steady.seconds(),
                steady.requests(),
                steady.measuredRequests(),
                steady.share() * 100);
        if (result.spec().load().arrivals() instanceof Arrivals.ClosedLoop closed) {
            // No offered rate in a closed loop: its users' sends follow the server's answers.
            return window
                    + String.format(
                            Locale.ROOT,
                            " requests started %.2f/s and ended %.2f/s, mean in flight %.1f of %d users%s",
                            steady.offeredRate(),
                            steady.achievedRate(),
                            steady.meanInFlight(),
                            closed.users(),
                            judged);
        }
        return window
                + String.format(
                        Locale.ROOT,
                        " offered %.2f req/s, achieved %.2f req/s, mean in flight %.1f%s",
                        steady.offeredRate(),
                        steady.achievedRate(),
                        steady.meanInFlight(),
                        judged);
    }

    /** Writes the {@code steady_state} object; times are seconds from the first measured request's intended start. */
    public static void writeJson(JsonGenerator json, RunResult result) throws IOException {
        SteadyState steady = result.load().steadyState();
        json.writeObjectFieldStart("steady_state");
        json.writeBooleanField("found", steady.found());
        json.writeBooleanField("judged_inside", result.spec().judgeSteadyStateOnly());
        if (steady.found()) {
            long origin = result.load().windowStartNanos();
            json.writeNumberField("start_s", (steady.startNanos() - origin) / 1e9);
            json.writeNumberField("end_s", (steady.endNanos() - origin) / 1e9);
            json.writeNumberField("requests", steady.requests());
            json.writeNumberField("share", steady.share());
            json.writeNumberField("offered_rate", steady.offeredRate());
            json.writeNumberField("achieved_rate", steady.achievedRate());
            json.writeNumberField("mean_in_flight", steady.meanInFlight());
        } else {
            json.writeStringField("reason", steady.reason());
        }
        json.writeEndObject();
    }
}
