package dev.goodput.core.report;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.report.internal.Html;
import dev.goodput.core.result.FailureBreakdown;
import dev.goodput.core.result.RunResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The failures section of a run's page: how many requests did not succeed, by outcome; their reasons, most frequent
 * first, with counts and example request indices; and the example requests themselves (index, phase, outcome, HTTP
 * status, reason). Reasons come from servers, so every one is escaped.
 */
final class FailureSection {

    /** The most reasons the section lists. */
    static final int MOST_REASONS = 20;

    /** The reasons whose example requests the section shows. */
    static final int EXAMPLE_REASONS = 10;

    private FailureSection() {}

    static String format(RunResult result) {
        FailureBreakdown failures = result.failures();
        if (failures.isEmpty()) {
            return "<p class=\"note\">Every request succeeded.</p>";
        }
        StringBuilder out = new StringBuilder("<p class=\"note\">")
                .append(Html.escape(String.format(
                        Locale.ROOT,
                        "%d of %d requests did not succeed (%s), warm-up and cool-down included. Every request's"
                                + " reason is in requests.csv, column error.",
                        failures.requests(),
                        result.accounting().scheduled(),
                        failures.byOutcome().entrySet().stream()
                                .map(e -> e.getValue() + " " + FailureBreakdown.outcomeName(e.getKey()))
                                .collect(Collectors.joining(", ")))))
                .append("</p>");
        List<List<Object>> rows = new ArrayList<>();
        for (FailureBreakdown.Reason reason : failures.top(MOST_REASONS)) {
            rows.add(List.of(
                    Long.toString(reason.count()),
                    FailureBreakdown.outcomeName(reason.outcome()),
                    reasonCell(reason.text()),
                    reason.examples().stream().map(String::valueOf).collect(Collectors.joining(", "))));
        }
        out.append(Html.table(List.of("requests", "outcome", "reason", "example requests"), rows));
        if (failures.reasons().size() > MOST_REASONS) {
            List<FailureBreakdown.Reason> shown = failures.top(MOST_REASONS);
            long rest = failures.requests()
                    - shown.stream().mapToLong(FailureBreakdown.Reason::count).sum();
            out.append("<p class=\"note\">")
                    .append(Html.escape(String.format(
                            Locale.ROOT,
                            "... and %d more reasons (%d requests).",
                            failures.reasons().size() - MOST_REASONS,
                            rest)))
                    .append("</p>");
        }
        return out.append("<h3>Example requests</h3>").append(examples(result)).toString();
    }

    private static String examples(RunResult result) {
        Map<Long, RequestRecord> byIndex = new HashMap<>();
        for (RequestRecord record : result.records()) {
            byIndex.put(record.index(), record);
        }
        List<List<Object>> rows = new ArrayList<>();
        for (FailureBreakdown.Reason reason : result.failures().top(EXAMPLE_REASONS)) {
            for (long index : reason.examples()) {
                RequestRecord record = byIndex.get(index);
                if (record == null) {
                    continue;
                }
                rows.add(List.of(
                        Long.toString(index),
                        record.phase().name().toLowerCase(Locale.ROOT),
                        FailureBreakdown.outcomeName(record.outcome()),
                        record.httpStatus() == 0 ? "none" : Integer.toString(record.httpStatus()),
                        reasonCell(record.outcome() == Outcome.SUCCESS ? "" : record.errorDetail())));
            }
        }
        return Html.table(List.of("request", "phase", "outcome", "HTTP status", "reason"), rows);
    }

    private static Html.Markup reasonCell(String text) {
        return Html.markup("<div class=\"reason\">" + Html.escape(text) + "</div>");
    }
}
