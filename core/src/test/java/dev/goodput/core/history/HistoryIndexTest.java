package dev.goodput.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.report.ReportIndex;
import dev.goodput.core.report.Reports;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryIndexTest {

    private static final RunResult RESULT = SampleResults.compute(List.<SloSpec>of());

    @TempDir
    Path reports;

    @Test
    void should_draw_a_trend_per_figure_and_list_the_change_point() throws IOException {
        Reports.writeAll(RESULT, reports.resolve("Sample").resolve("gate"), "Sample.gate()");
        Reports.writeAll(RESULT, reports.resolve("Other").resolve("gate"), "Other.gate()");
        Path history = reports.resolve("history.jsonl");
        double[] ttft =
                ChangePointsTest.concat(ChangePointsTest.normal(1, 30, 100, 3), ChangePointsTest.normal(2, 30, 118, 3));
        for (int i = 0; i < ttft.length; i++) {
            RunHistory.append(
                    history,
                    new HistoryEntry(
                            "Sample/gate",
                            Instant.EPOCH,
                            String.format("%07x", 0xabc0000 + i),
                            "main",
                            "dev",
                            Map.of(HistoryEntry.TTFT_P99_MS, ttft[i], HistoryEntry.GOODPUT_RPS, 5.0)));
        }
        // One entry is not a trend; a test without a report in this directory is not listed.
        RunHistory.append(history, HistoryEntry.of("Other/gate", RESULT, "", ""));
        RunHistory.append(history, HistoryEntry.of("Elsewhere/gate", RESULT, "", ""));
        RunHistory.append(history, HistoryEntry.of("Elsewhere/gate", RESULT, "", ""));

        String index = Files.readString(ReportIndex.write(reports, history), StandardCharsets.UTF_8);

        assertThat(index).contains("<h2>History</h2>");
        assertThat(index).contains("<a href=\"Sample/gate/report.html\">Sample/gate</a>");
        assertThat(index).contains("id=\"trend-Sample-gate-ttft_p99_ms\"", "id=\"trend-Sample-gate-goodput_rps\"");
        assertThat(index).doesNotContain("trend-Other-gate", "Elsewhere");
        // The step at the 31st entry, commit abc001e: a dashed line in the chart and a row in the table.
        assertThat(index).contains("<text class=\"bound-label\"").contains(">abc001e +1");
        assertThat(index).contains("ttft_p99_ms shifted +1").contains("at commit abc001e");
        assertThat(index).contains("<td>ttft_p99_ms</td><td>31</td><td>abc001e</td>");
        assertThat(index).contains("<span class=\"FAILED\">regression</span>");
    }

    @Test
    void should_leave_the_index_as_it_was_without_history_or_with_one_entry() throws IOException {
        Reports.writeAll(RESULT, reports.resolve("Sample").resolve("gate"), "Sample.gate()");
        Path history = reports.resolve("history.jsonl");
        RunHistory.append(history, HistoryEntry.of("Sample/gate", RESULT, "", ""));

        String plain = Files.readString(ReportIndex.write(reports), StandardCharsets.UTF_8);
        String withOneEntry = Files.readString(ReportIndex.write(reports, history), StandardCharsets.UTF_8);

        assertThat(plain).doesNotContain("History").doesNotContain("<svg");
        assertThat(withOneEntry).isEqualTo(plain);
    }

    @Test
    void should_note_an_unreadable_history_instead_of_failing_the_index() throws IOException {
        Reports.writeAll(RESULT, reports.resolve("Sample").resolve("gate"), "Sample.gate()");
        Path history = reports.resolve("history.jsonl");
        Files.writeString(history, "not json\n", StandardCharsets.UTF_8);

        String index = Files.readString(ReportIndex.write(reports, history), StandardCharsets.UTF_8);

        assertThat(index).contains("<p class=\"note\">history file " + history + " line 1: not JSON");
    }
}
