package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.report.Html;
import java.io.IOException;
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
 * Writes {@value #FILE} into a report directory: one row per test's page ({@value Reports#HTML_FILE} or {@value
 * Reports#SWEEP_HTML_FILE}) found below it, with the verdict the page carries. Rewritten after every test, so it
 * always lists what the directory holds.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ReportIndex {

    /** The index page's file name. */
    public static final String FILE = "index.html";

    private static final Pattern VERDICT =
            Pattern.compile("<meta name=\"" + Html.VERDICT_META + "\" content=\"([^\"]*)\">");
    private static final Pattern TITLE = Pattern.compile("<title>([^<]*)</title>");

    private ReportIndex() {}

    /** Scans {@code root} and writes its index page; returns the page's path. */
    public static synchronized Path write(Path root) {
        List<List<String>> rows = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            List<Path> pages = files.filter(ReportIndex::isTestPage).sorted().toList();
            for (Path page : pages) {
                String head = Files.readString(page, StandardCharsets.UTF_8);
                head = head.substring(0, Math.min(head.length(), 4000));
                String link = root.relativize(page).toString().replace('\\', '/');
                rows.add(List.of(
                        "<a href=\"" + Html.escape(link) + "\">" + find(TITLE, head) + "</a>",
                        Html.verdict(find(VERDICT, head)),
                        page.getFileName().toString().equals(Reports.SWEEP_HTML_FILE) ? "sweep" : "run"));
            }
            String body = "<h1>Goodput reports</h1><p class=\"note\">" + rows.size() + " report(s) under "
                    + Html.escape(root.toAbsolutePath().toString()) + "</p>"
                    + Html.table(List.of("test", "verdict", "kind"), rows);
            Path index = root.resolve(FILE);
            Files.writeString(index, Html.page("Goodput reports", "INDEX", body), StandardCharsets.UTF_8);
            return index;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report index in " + root, e);
        }
    }

    private static boolean isTestPage(Path file) {
        String name = file.getFileName().toString();
        if (name.equals(Reports.SWEEP_HTML_FILE)) {
            return true;
        }
        // A sweep's own runs sit in run-NN directories below its page; the index lists the sweep, not them.
        Path parent = file.getParent();
        return name.equals(Reports.HTML_FILE)
                && (parent == null || !parent.getFileName().toString().startsWith(Reports.SWEEP_RUN_PREFIX));
    }

    private static String find(Pattern pattern, String text) {
        Matcher matcher = pattern.matcher(text);
        return matcher.find() ? matcher.group(1) : "?";
    }
}
