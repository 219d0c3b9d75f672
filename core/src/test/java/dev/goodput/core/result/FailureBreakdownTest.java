package dev.goodput.core.result;

import static dev.goodput.core.testing.SampleResults.failure;
import static dev.goodput.core.testing.SampleResults.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailureBreakdownTest {

    private static final String REFUSED = "connection refused or unreachable (ConnectException)";
    private static final String NO_MODEL = "HTTP 404: The model `x` does not exist.";

    private static RequestRecord failed(long index, Phase phase, int status, String reason) {
        return failure(index, phase, index, index + 1, Outcome.FAILED, status, reason);
    }

    @Test
    void should_group_by_outcome_and_reason_most_frequent_first_with_the_first_examples_and_every_phase() {
        List<RequestRecord> records = List.of(
                failed(0, Phase.WARMUP, 404, NO_MODEL),
                success(1, Phase.MEASURED, 0, 0, 10, 20, 20, 3),
                failed(2, Phase.MEASURED, 0, REFUSED),
                failed(3, Phase.MEASURED, 0, REFUSED),
                failure(4, Phase.MEASURED, 4, 5, Outcome.TIMED_OUT, 200, "no first token within 500 ms of sending"),
                failed(9, Phase.COOLDOWN, 0, REFUSED),
                failed(7, Phase.MEASURED, 0, REFUSED),
                failed(5, Phase.MEASURED, 0, REFUSED),
                failed(8, Phase.COOLDOWN, 404, NO_MODEL),
                // The same text with another outcome is another reason.
                failure(6, Phase.MEASURED, 6, 7, Outcome.CANCELLED, 0, REFUSED));

        FailureBreakdown failures = FailureBreakdown.of(records);

        assertThat(failures.requests()).isEqualTo(9);
        assertThat(failures.byOutcome())
                .containsExactly(
                        java.util.Map.entry(Outcome.FAILED, 7L),
                        java.util.Map.entry(Outcome.TIMED_OUT, 1L),
                        java.util.Map.entry(Outcome.CANCELLED, 1L));
        assertThat(failures.reasons())
                .containsExactly(
                        new FailureBreakdown.Reason(Outcome.FAILED, REFUSED, 5, List.of(2L, 3L, 5L)),
                        new FailureBreakdown.Reason(Outcome.FAILED, NO_MODEL, 2, List.of(0L, 8L)),
                        // A tie is broken by the first request: 4 before 6.
                        new FailureBreakdown.Reason(
                                Outcome.TIMED_OUT, "no first token within 500 ms of sending", 1, List.of(4L)),
                        new FailureBreakdown.Reason(Outcome.CANCELLED, REFUSED, 1, List.of(6L)));
        assertThat(failures.reasons().stream()
                        .mapToLong(FailureBreakdown.Reason::count)
                        .sum())
                .isEqualTo(failures.requests());
        assertThat(failures.describe(5, "  "))
                .containsExactly(
                        "why 9 requests did not succeed (warm-up and cool-down included):",
                        "  5 x connection refused or unreachable (ConnectException)",
                        "  2 x HTTP 404: The model `x` does not exist.",
                        "  1 x timed out: no first token within 500 ms of sending",
                        "  1 x cancelled: connection refused or unreachable (ConnectException)");
    }

    @Test
    void should_cap_the_reasons_it_describes_and_say_how_many_reasons_and_requests_it_left_out() {
        List<RequestRecord> records = new ArrayList<>();
        int index = 0;
        for (int reason = 1; reason <= 7; reason++) {
            for (int i = 0; i < 8 - reason; i++) {
                records.add(failed(index++, Phase.MEASURED, 500, "HTTP 500: failure number " + reason));
            }
        }

        assertThat(FailureBreakdown.of(records).describe(5, "  "))
                .containsExactly(
                        "why 28 requests did not succeed (warm-up and cool-down included):",
                        "  7 x HTTP 500: failure number 1",
                        "  6 x HTTP 500: failure number 2",
                        "  5 x HTTP 500: failure number 3",
                        "  4 x HTTP 500: failure number 4",
                        "  3 x HTTP 500: failure number 5",
                        "  ... and 2 more reasons (3 requests); every request's reason is in requests.csv");
    }

    @Test
    void should_describe_a_reason_on_one_line_cut_to_its_length() {
        String html = "HTTP 502: <html>\n  <body>Bad gateway</body>\r\n</html>";
        var reason = new FailureBreakdown.Reason(Outcome.FAILED, html, 3, List.of(1L));

        assertThat(reason.describe()).isEqualTo("3 x HTTP 502: <html> <body>Bad gateway</body> </html>");
        assertThat(reason.describe(20)).isEqualTo("3 x HTTP 502: <html> ...");
        assertThat(new FailureBreakdown.Reason(Outcome.FAILED, "x".repeat(400), 1, List.of(0L)).describe())
                .hasSize("1 x ".length() + FailureBreakdown.SHORT_TEXT)
                .endsWith("x...");
    }

    @Test
    void should_be_empty_when_every_request_succeeded() {
        FailureBreakdown failures = FailureBreakdown.of(List.of(success(0, Phase.MEASURED, 0, 0, 10, 20, 20, 3)));

        assertThat(failures.isEmpty()).isTrue();
        assertThat(failures.reasons()).isEmpty();
        assertThat(failures.describe(5, "  ")).isEmpty();
        assertThat(failures.byOutcome()).containsOnlyKeys(Outcome.FAILED, Outcome.TIMED_OUT, Outcome.CANCELLED);
    }
}
