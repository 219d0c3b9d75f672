package dev.goodput.junit.internal;

import dev.goodput.core.report.IndexedReport;
import dev.goodput.core.report.ReportIndex;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Formats the gates of one test session as Markdown: one table row per test page written since the session
 * started, read through {@link ReportIndex#entries(Path)} so the summary and {@code index.html} never disagree.
 */
final class SessionSummary {

    /** The summary's file name in the report directory. */
    static final String FILE = "summary.md";

    private SessionSummary() {}

    /**
     * Returns the Markdown summary of the pages below {@code reportDirectory} written at or after {@code since}, or
     * nothing when there is none: a session without gates leaves no summary behind.
     */
    static Optional<String> markdown(Path reportDirectory, Instant since) {
        List<IndexedReport> gates = ReportIndex.entries(reportDirectory).stream()
                .filter(entry -> !entry.written().isBefore(since))
                .sorted(Comparator.comparing(IndexedReport::test).thenComparing(IndexedReport::link))
                .toList();
        if (gates.isEmpty()) {
            return Optional.empty();
        }
        long failed = gates.stream().filter(SessionSummary::failed).count();
        StringBuilder text = new StringBuilder("## Goodput gates\n\n")
                .append(gates.size())
                .append(" gate(s) in this session, ")
                .append(failed)
                .append(" failed; reports under `")
                .append(reportDirectory.toAbsolutePath().normalize())
                .append("`\n\n")
                .append(
                        "| test | verdict | requests | goodput | p99 TTFT | error rate | vs baseline | why not passed | top failure reason | report |\n")
                .append("|---|---|---:|---:|---:|---:|---|---|---|---|\n");
        for (IndexedReport gate : gates) {
            text.append("| ")
                    .append(String.join(
                            " | ",
                            cell(gate.test()),
                            cell(failed(gate) ? "**" + gate.verdict() + "**" : gate.verdict()),
                            cell(gate.requests()),
                            cell(gate.goodput()),
                            cell(gate.ttftP99()),
                            cell(gate.errorRate()),
                            cell(gate.baselineChange()),
                            cell(gate.why()),
                            cell(gate.topFailure()),
                            "[" + gate.kind() + "](" + gate.link().replace(" ", "%20") + ")"))
                    .append(" |\n");
        }
        return Optional.of(text.toString());
    }

    /** A run without objectives (a comparison run) has nothing to fail; every other verdict but PASSED failed. */
    private static boolean failed(IndexedReport gate) {
        return !gate.verdict().equals("PASSED") && !gate.verdict().equals("NO-OBJECTIVES");
    }

    /** Keeps a value inside its table cell: a {@code |} would end the cell, a line break the row. */
    static String cell(String value) {
        return value.replace("\\", "\\\\")
                .replace("|", "\\|")
                .replace("\r\n", "<br>")
                .replace("\n", "<br>")
                .replace("\r", "<br>");
    }
}
