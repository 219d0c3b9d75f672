package dev.goodput.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index is updated after each test from the rows it keeps and the one test's directory: after any number of
 * tests it lists what a scan of the whole directory would, without such a scan.
 */
class ReportIndexUpdateTest {

    private static final RunResult RESULT =
            SampleResults.compute(List.of(SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(180))));

    @TempDir
    Path reports;

    private Path gate(String name) {
        Path directory = reports.resolve("Gates").resolve(name);
        Reports.writeAll(RESULT, directory, "Gates." + name + "()");
        return directory;
    }

    @Test
    void should_list_every_gate_after_many_updates_without_scanning_the_directory_again() throws IOException {
        int scans = ReportIndex.SCANS.get();
        for (int i = 0; i < 12; i++) {
            ReportIndex.update(reports, gate("gate" + i), null);
        }
        // Only the first update scanned: there was no index to read the rows back from.
        assertThat(ReportIndex.SCANS.get() - scans).isEqualTo(1);

        String updated = Files.readString(reports.resolve(ReportIndex.FILE));
        for (int i = 0; i < 12; i++) {
            assertThat(updated).contains("<a href=\"Gates/gate" + i + "/report.html\">Gates.gate" + i + "()</a>");
        }
        // The same page as a scan of the whole directory writes.
        assertThat(ReportIndex.write(reports)).content().isEqualTo(updated);
    }

    @Test
    void should_keep_the_rows_another_writer_added_and_drop_those_whose_page_is_gone() throws IOException {
        ReportIndex.update(reports, gate("first"), null);
        // Another JVM writing the same report directory: its gate reaches this JVM only through the index.
        Path other = gate("other");
        ReportIndex.update(reports, other, null);
        ReportIndex.update(reports, gate("third"), null);
        assertThat(ReportIndex.update(reports, gate("first"), null))
                .content()
                .contains("Gates/first/report.html", "Gates/other/report.html", "Gates/third/report.html");

        Files.delete(other.resolve(Reports.HTML_FILE));
        ReportIndex.update(reports, gate("third"), null);

        String index = Files.readString(reports.resolve(ReportIndex.FILE));
        assertThat(index).contains("Gates/first/report.html", "Gates/third/report.html");
        assertThat(index).doesNotContain("Gates/other/report.html");
        assertThat(ReportIndex.write(reports)).content().isEqualTo(index);
    }

    @Test
    void should_replace_a_runs_row_with_the_gate_page_written_beside_it() throws IOException {
        Path directory = gate("trials");
        ReportIndex.update(reports, directory, null);
        Files.writeString(
                directory.resolve(GateReport.HTML_FILE), "<html><head><title>Gates.trials()</title></head></html>");

        String index = Files.readString(ReportIndex.update(reports, directory, null));

        assertThat(index).contains("Gates/trials/gate.html").doesNotContain("Gates/trials/report.html");
        assertThat(ReportIndex.write(reports)).content().isEqualTo(index);
    }
}
