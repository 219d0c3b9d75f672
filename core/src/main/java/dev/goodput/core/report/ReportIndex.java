package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.report.internal.HistoryCharts;
import dev.goodput.core.report.internal.Html;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Writes {@value #FILE} into a report directory: one row per test's page ({@value Reports#HTML_FILE}, {@value
 * Reports#SWEEP_HTML_FILE}, {@value GateReport#HTML_FILE} or {@value VariantComparison#HTML_FILE}) found below it,
 * with the verdict the page carries, why it did not pass, its key figures (for a run requests, goodput, p99 TTFT,
 * error rate; for a sweep its requests and max goodput rate) and its most frequent failure reason. Rewritten after every test, so it
 * always lists what the directory holds.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ReportIndex {

    /** The index page's file name. */
    public static final String FILE = "index.html";

    static final String REQUESTS_META = "goodput-requests";
    static final String GOODPUT_META = "goodput-goodput";
    static final String TTFT_P99_META = "goodput-ttft-p99";
    static final String ERROR_RATE_META = "goodput-error-rate";
    static final String TOP_FAILURE_META = "goodput-top-failure";
    static final String BASELINE_META = "goodput-baseline";
    static final String WHY_META = "goodput-why";

    /** The longest top failure reason a page's head carries. */
    static final int TOP_FAILURE_CHARS = dev.goodput.core.internal.redaction.TextCut.TOP_FAILURE.chars();

    /** The bytes of a page read for its head: its metas come before the style, well within this. */
    private static final int HEAD_BYTES = 16 * 1024;

    private static final Pattern TITLE = Pattern.compile("<title>([^<]*)</title>");

    private ReportIndex() {}

    /** Scans {@code root} and writes its index page; returns the page's path. */
    public static Path write(Path root) {
        return write(root, null);
    }

    /**
     * Scans {@code root} and writes its index page with, when {@code historyFile} is not null, the trend charts and
     * change points of every listed test with at least two entries in that history file ({@code
     * dev.goodput.core.history}); returns the page's path.
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static synchronized Path write(Path root, Path historyFile) {
        List<List<Object>> rows = new ArrayList<>();
        List<String> links = new ArrayList<>();
        for (IndexedReport entry : entries(root)) {
            links.add(entry.link());
            rows.add(List.of(
                    Html.markup("<a href=\"" + Html.escape(entry.link()) + "\">" + Html.escape(entry.test()) + "</a>"),
                    Html.markup(Html.verdict(entry.verdict())),
                    entry.kind(),
                    entry.requests(),
                    entry.goodput(),
                    entry.ttftP99(),
                    entry.errorRate(),
                    entry.baselineChange(),
                    Html.markup("<div class=\"reason\">" + Html.escape(entry.why()) + "</div>"),
                    Html.markup("<div class=\"reason\">" + Html.escape(entry.topFailure()) + "</div>")));
        }
        String body = "<h1>Goodput reports</h1><p class=\"note\">" + rows.size() + " report(s) under "
                + Html.escape(root.toAbsolutePath().toString()) + "; a run's top failure reason counts every"
                + " request, warm-up and cool-down included</p>"
                + Html.table(
                        List.of(
                                "test",
                                "verdict",
                                "kind",
                                "requests",
                                "goodput",
                                "p99 TTFT",
                                "error rate",
                                "vs baseline",
                                "why not passed",
                                "top failure reason"),
                        rows)
                + (historyFile == null ? "" : HistoryCharts.section(historyFile, links));
        Path index = root.resolve(FILE);
        try {
            Files.writeString(index, Html.page("Goodput reports", "INDEX", body), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report index in " + root, e);
        }
        return index;
    }

    /**
     * Returns the rows the index page lists for {@code root}: one per test's page found below it, in the order of
     * the pages' paths; empty when {@code root} does not exist.
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static List<IndexedReport> entries(Path root) {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        List<IndexedReport> entries = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path page : files.filter(ReportIndex::isTestPage).sorted().toList()) {
                String head = head(page);
                entries.add(new IndexedReport(
                        page,
                        root.relativize(page).toString().replace('\\', '/'),
                        find(TITLE, head),
                        meta(head, Html.VERDICT_META, "?"),
                        kind(page),
                        meta(head, REQUESTS_META, ""),
                        meta(head, GOODPUT_META, ""),
                        meta(head, TTFT_P99_META, ""),
                        meta(head, ERROR_RATE_META, ""),
                        meta(head, TOP_FAILURE_META, ""),
                        meta(head, BASELINE_META, ""),
                        meta(head, WHY_META, ""),
                        Files.getLastModifiedTime(page).toInstant()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the reports in " + root, e);
        }
        return entries;
    }

    /** Reads the start of a page, up to the end of its head. */
    private static String head(Path page) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(page)) {
            bytes = in.readNBytes(HEAD_BYTES);
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        int end = text.indexOf("</head>");
        return end < 0 ? text : text.substring(0, end);
    }

    private static String kind(Path page) {
        return switch (page.getFileName().toString()) {
            case Reports.SWEEP_HTML_FILE -> "sweep";
            case GateReport.HTML_FILE -> "gate";
            case VariantComparison.HTML_FILE -> "variants";
            default -> "run";
        };
    }

    private static boolean isTestPage(Path file) {
        String name = file.getFileName().toString();
        Path parent = file.getParent();
        // A test run against several server variants has one page for them all, which links to each variant's
        // own page below it; the index lists that page (and its verdict under the test's require policy), not a
        // variant that failed while the test passed.
        if (parent != null
                && parent.getParent() != null
                && Files.exists(parent.getParent().resolve(VariantComparison.HTML_FILE))) {
            return false;
        }
        if (name.equals(Reports.SWEEP_HTML_FILE)
                || name.equals(GateReport.HTML_FILE)
                || name.equals(VariantComparison.HTML_FILE)) {
            return true;
        }
        // A sweep's own runs sit in run-NN directories below its page, a gate's trials in trial-N directories below
        // its gate page, and a gate page beside a run's page stands for it; the index lists the sweep or gate.
        if (parent == null) {
            return name.equals(Reports.HTML_FILE);
        }
        String directory = parent.getFileName().toString();
        return name.equals(Reports.HTML_FILE)
                && !directory.startsWith(Reports.SWEEP_RUN_PREFIX)
                && !directory.startsWith(GATE_TRIAL_PREFIX)
                && !Files.exists(parent.resolve(GateReport.HTML_FILE));
    }

    /** The prefix of the directories of a gate's trials. */
    static final String GATE_TRIAL_PREFIX = "trial-";

    /** Returns a meta element's content as text (unescaped), or the fallback when the page has none. */
    private static String meta(String head, String name, String fallback) {
        Matcher matcher = Pattern.compile("<meta name=\"" + Pattern.quote(name) + "\" content=\"([^\"]*)\">")
                .matcher(head);
        return matcher.find() ? Html.unescape(matcher.group(1)) : fallback;
    }

    private static String find(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        return matcher.find() ? Html.unescape(matcher.group(1)) : "?";
    }
}
