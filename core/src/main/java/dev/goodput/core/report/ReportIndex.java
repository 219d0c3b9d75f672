package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.report.internal.HistoryCharts;
import dev.goodput.core.report.internal.Html;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Writes {@value #FILE} into a report directory: one row per test's page ({@value Reports#HTML_FILE}, {@value
 * Reports#SWEEP_HTML_FILE}, {@value GateReport#HTML_FILE} or {@value VariantComparison#HTML_FILE}) found below it,
 * with the verdict the page carries, why it did not pass, its key figures (for a run requests, goodput, p99 TTFT,
 * error rate; for a sweep its requests and max goodput rate) and its most frequent failure reason. Updated after every
 * test ({@link #update}) from the rows the page itself keeps and the one test's directory, so it always lists what the
 * directory holds without reading every page again; JVMs that write the same directory take turns through a lock
 * file ({@value #LOCK_FILE}).
 *
 * <p>Longer than 300 lines because the index both scans a directory's pages and keeps the rows it listed, to update
 * them under a lock; the rules of which page stands for a test apply to both and sit beside them.
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

    /** The file that JVMs writing the same report directory lock in turn to update its index. */
    static final String LOCK_FILE = ".index.lock";

    /** The start of the element in which the index page keeps its rows, for the next update to read back. */
    private static final String ROWS_START = "<script type=\"application/json\" id=\"goodput-index-rows\">";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** How many times a whole report directory was scanned in this JVM: a test seam, to show an update scans none. */
    static final AtomicInteger SCANS = new AtomicInteger();

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
        return locked(root, () -> render(root, entries(root), historyFile));
    }

    /**
     * Updates {@code root}'s index page after one test wrote its pages into {@code directory} (below {@code root}):
     * the rows below {@code directory} are replaced by the test's pages found there, the rows of pages that no longer
     * exist are dropped, and every other row is kept as the page last listed it, without reading its page again. An
     * index page that keeps no rows (written by an older version, or none yet) is written by a scan of the whole of
     * {@code root}, as {@link #write(Path, Path)} does. Several JVMs may update the same index: each update waits for
     * the one before it.
     *
     * @param historyFile the history file whose trends the page shows, or {@code null} for none
     * @return the page's path
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static synchronized Path update(Path root, Path directory, Path historyFile) {
        return locked(root, () -> {
            Optional<List<IndexedReport>> kept = kept(root);
            if (kept.isEmpty()) {
                return render(root, entries(root), historyFile);
            }
            String below = link(root, directory);
            List<IndexedReport> rows = new ArrayList<>();
            for (IndexedReport row : kept.get()) {
                boolean replaced = below.isEmpty() || row.link().startsWith(below + "/");
                if (!replaced && Files.exists(row.page())) {
                    rows.add(row);
                }
            }
            rows.addAll(pagesBelow(root, directory));
            rows.sort(Comparator.comparing(IndexedReport::page));
            return render(root, rows, historyFile);
        });
    }

    /** Runs {@code write} holding the index's lock, against this JVM's other threads and other JVMs alike. */
    private static Path locked(Path root, IndexWrite write) {
        try {
            Files.createDirectories(root);
            try (FileChannel channel = FileChannel.open(
                            root.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock lock = channel.lock()) {
                return write.run();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report index in " + root, e);
        }
    }

    /** A write of the index page, made holding its lock. */
    private interface IndexWrite {
        Path run() throws IOException;
    }

    private static Path render(Path root, List<IndexedReport> entries, Path historyFile) {
        List<List<Object>> rows = new ArrayList<>();
        List<String> links = new ArrayList<>();
        for (IndexedReport entry : entries) {
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
                + (historyFile == null ? "" : HistoryCharts.section(historyFile, links))
                + ROWS_START + rowsJson(entries) + "</script>";
        Path index = root.resolve(FILE);
        try {
            // Whole or not at all: a reader (a browser, another JVM waiting for the lock) never sees half a page.
            Path partial = Files.createTempFile(root, FILE, ".partial");
            Files.writeString(partial, Html.page("Goodput reports", "INDEX", body), StandardCharsets.UTF_8);
            try {
                Files.move(partial, index, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, index, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report index in " + root, e);
        }
        return index;
    }

    /** The rows as JSON that cannot end the script element holding it. */
    private static String rowsJson(List<IndexedReport> entries) {
        List<Map<String, String>> rows = new ArrayList<>();
        for (IndexedReport entry : entries) {
            Map<String, String> row = new LinkedHashMap<>();
            row.put("link", entry.link());
            row.put("test", entry.test());
            row.put("verdict", entry.verdict());
            row.put("kind", entry.kind());
            row.put("requests", entry.requests());
            row.put("goodput", entry.goodput());
            row.put("ttftP99", entry.ttftP99());
            row.put("errorRate", entry.errorRate());
            row.put("topFailure", entry.topFailure());
            row.put("baselineChange", entry.baselineChange());
            row.put("why", entry.why());
            row.put("written", entry.written().toString());
            rows.add(row);
        }
        try {
            return JSON.writeValueAsString(rows).replace("<", "\\u003c");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Returns the rows {@code root}'s index page keeps, or empty when there is no page or it keeps none. */
    private static Optional<List<IndexedReport>> kept(Path root) throws IOException {
        Path index = root.resolve(FILE);
        if (!Files.isRegularFile(index)) {
            return Optional.empty();
        }
        String page = Files.readString(index, StandardCharsets.UTF_8);
        int start = page.lastIndexOf(ROWS_START);
        int end = start < 0 ? -1 : page.indexOf("</script>", start);
        if (end < 0) {
            return Optional.empty();
        }
        List<IndexedReport> rows = new ArrayList<>();
        try {
            for (JsonNode row : JSON.readTree(page.substring(start + ROWS_START.length(), end))) {
                String link = row.path("link").asText();
                rows.add(new IndexedReport(
                        root.resolve(link),
                        link,
                        row.path("test").asText(),
                        row.path("verdict").asText(),
                        row.path("kind").asText(),
                        row.path("requests").asText(),
                        row.path("goodput").asText(),
                        row.path("ttftP99").asText(),
                        row.path("errorRate").asText(),
                        row.path("topFailure").asText(),
                        row.path("baselineChange").asText(),
                        row.path("why").asText(),
                        Instant.parse(row.path("written").asText())));
            }
        } catch (IOException | RuntimeException e) {
            // Rows that cannot be read back are rebuilt from the pages.
            return Optional.empty();
        }
        return Optional.of(rows);
    }

    /** The path of {@code file} below {@code root} with {@code /} as separator; empty for {@code root} itself. */
    private static String link(Path root, Path file) {
        return root.toAbsolutePath()
                .normalize()
                .relativize(file.toAbsolutePath().normalize())
                .toString()
                .replace('\\', '/');
    }

    /**
     * Returns the rows the index page lists for {@code root}: one per test's page found below it, in the order of
     * the pages' paths; empty when {@code root} does not exist.
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static List<IndexedReport> entries(Path root) {
        SCANS.incrementAndGet();
        return pagesBelow(root, root);
    }

    /** Returns the rows of the test pages below {@code directory} (in {@code root}), in the order of their paths. */
    private static List<IndexedReport> pagesBelow(Path root, Path directory) {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<IndexedReport> entries = new ArrayList<>();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path found : files.filter(ReportIndex::isTestPage).toList()) {
                String head = head(found);
                String link = link(root, found);
                Path page = root.resolve(link);
                entries.add(new IndexedReport(
                        page,
                        link,
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
            throw new UncheckedIOException("cannot read the reports in " + directory, e);
        }
        entries.sort(Comparator.comparing(IndexedReport::page));
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
