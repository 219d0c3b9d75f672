package dev.goodput.junit.assertions;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.error.ErrorMessageFactory;

/** Says that requests did not succeed, with a few of them as examples so the cause is visible at once. */
final class ShouldHaveOnlySuccessfulRequests extends GoodputErrorMessage {

    /** Enough examples to show a pattern without burying the message. */
    static final int MAX_EXAMPLES = 5;

    /** Error details can hold a whole response body; a line of a message should stay readable. */
    static final int MAX_DETAIL_LENGTH = 200;

    private ShouldHaveOnlySuccessfulRequests(String message) {
        super(message);
    }

    /**
     * Returns, for example:
     *
     * <pre>
     * Expecting the run to have no failed requests but 2 of 120 requests failed, for example:
     *   request 5 (measured): HTTP 500
     *   request 17 (warm-up): connection reset
     * </pre>
     *
     * @param matching the requests with that outcome, in schedule order
     * @param total all requests of the run
     */
    static ErrorMessageFactory shouldHaveNoRequests(Outcome outcome, List<RequestRecord> matching, long total) {
        String word = Vocabulary.outcome(outcome);
        String verb = outcome == Outcome.CANCELLED ? "were cancelled" : word;
        return new ShouldHaveOnlySuccessfulRequests("Expecting the run to have no " + word.replace(' ', '-')
                + " requests but " + matching.size() + " of " + total + " requests " + verb + ", for example:"
                + examples(matching, false));
    }

    /**
     * Returns, for example:
     *
     * <pre>
     * Expecting all 120 requests of the run to succeed but 3 did not (2 failed, 1 timed out), for example:
     *   request 5 (measured, failed): HTTP 500
     *   request 9 (measured, timed out): no first token within 30 s
     *   request 17 (warm-up, failed): connection reset
     * </pre>
     *
     * @param unsuccessful the requests that did not succeed, in schedule order
     * @param total all requests of the run
     */
    static ErrorMessageFactory shouldAllSucceed(List<RequestRecord> unsuccessful, long total) {
        Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
        unsuccessful.forEach(record -> counts.merge(record.outcome(), 1L, Long::sum));
        String breakdown = counts.entrySet().stream()
                .map(entry -> entry.getValue() + " " + Vocabulary.outcome(entry.getKey()))
                .collect(Collectors.joining(", "));
        return new ShouldHaveOnlySuccessfulRequests("Expecting all " + total + " requests of the run to succeed but "
                + unsuccessful.size() + " did not (" + breakdown + "), for example:" + examples(unsuccessful, true));
    }

    private static String examples(List<RequestRecord> records, boolean withOutcome) {
        StringBuilder lines = new StringBuilder();
        for (RequestRecord record : records.subList(0, Math.min(MAX_EXAMPLES, records.size()))) {
            lines.append(System.lineSeparator()).append("  request ").append(record.index());
            lines.append(" (").append(Vocabulary.phase(record.phase()));
            if (withOutcome) {
                lines.append(", ").append(Vocabulary.outcome(record.outcome()));
            }
            lines.append("): ").append(shorten(record.errorDetail()));
        }
        if (records.size() > MAX_EXAMPLES) {
            lines.append(System.lineSeparator()).append("  ... and ").append(records.size() - MAX_EXAMPLES);
            lines.append(" more");
        }
        return lines.toString();
    }

    private static String shorten(String detail) {
        if (detail == null) {
            return "no detail";
        }
        return detail.length() <= MAX_DETAIL_LENGTH ? detail : detail.substring(0, MAX_DETAIL_LENGTH) + "...";
    }
}
