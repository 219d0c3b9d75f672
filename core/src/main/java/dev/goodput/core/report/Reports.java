package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apiguardian.api.API;

/** Writes every report of a run into one directory. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Reports {

    /** The JSON result's file name. */
    public static final String JSON_FILE = "result.json";

    /** The per-request CSV's file name. */
    public static final String CSV_FILE = "requests.csv";

    /** The console summary's file name. */
    public static final String SUMMARY_FILE = "summary.txt";

    /** The HTML page's file name. */
    public static final String HTML_FILE = "report.html";

    /** A sweep's HTML page's file name. */
    public static final String SWEEP_HTML_FILE = "sweep.html";

    /** A sweep's summary CSV's file name, one row per run. */
    public static final String SWEEP_CSV_FILE = "sweep.csv";

    /** The prefix of the directory of a sweep's n-th run, for example {@code run-03}. */
    public static final String SWEEP_RUN_PREFIX = "run-";

    private Reports() {}

    /**
     * Writes {@value #JSON_FILE}, {@value #CSV_FILE}, {@value #SUMMARY_FILE} and {@value #HTML_FILE} into {@code
     * directory}, creating it, and returns it.
     */
    public static Path writeAll(RunResult result, Path directory) {
        return writeAll(
                result,
                directory,
                directory.getFileName() == null
                        ? "Goodput run"
                        : directory.getFileName().toString());
    }

    /** Writes every report of a run as {@link #writeAll(RunResult, Path)} does, the HTML page under a title. */
    public static Path writeAll(RunResult result, Path directory, String title) {
        try {
            HtmlReport.write(result, title, directory.resolve(HTML_FILE));
            Files.createDirectories(directory);
            JsonReport.write(result, directory.resolve(JSON_FILE));
            CsvReport.write(result, directory.resolve(CSV_FILE));
            Files.writeString(directory.resolve(SUMMARY_FILE), ConsoleReport.format(result), StandardCharsets.UTF_8);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reports to " + directory, e);
        }
    }

    /**
     * Writes a sweep's reports into {@code directory}: {@value #SWEEP_HTML_FILE}, {@value #SWEEP_CSV_FILE}, and
     * every run's own reports in {@code run-01}, {@code run-02}, ... Returns the directory.
     *
     * @param verdict the verdict the page shows and the index lists, for example PASSED
     */
    public static Path writeSweep(SweepResult result, Path directory, String title, String verdict) {
        int n = 0;
        for (SweepPoint point : result.points()) {
            n++;
            writeAll(
                    point.result(),
                    directory.resolve(runDirectory(n)),
                    title + " - run " + n + " (" + point.role().name().toLowerCase(java.util.Locale.ROOT)
                            + (point.isRated()
                                    ? String.format(java.util.Locale.ROOT, ", %.2f req/s", point.offeredRate())
                                    : "")
                            + ")");
        }
        SweepCsvReport.write(result, directory.resolve(SWEEP_CSV_FILE));
        SweepHtmlReport.write(
                result, title, verdict, run -> runDirectory(run) + "/" + HTML_FILE, directory.resolve(SWEEP_HTML_FILE));
        return directory;
    }

    private static String runDirectory(int run) {
        return String.format(java.util.Locale.ROOT, "%s%02d", SWEEP_RUN_PREFIX, run);
    }
}
