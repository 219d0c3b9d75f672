package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.RunResult;
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

    private Reports() {}

    /**
     * Writes {@value #JSON_FILE}, {@value #CSV_FILE} and {@value #SUMMARY_FILE} into {@code directory},
     * creating it, and returns it.
     */
    public static Path writeAll(RunResult result, Path directory) {
        try {
            Files.createDirectories(directory);
            JsonReport.write(result, directory.resolve(JSON_FILE));
            CsvReport.write(result, directory.resolve(CSV_FILE));
            Files.writeString(directory.resolve(SUMMARY_FILE), ConsoleReport.format(result), StandardCharsets.UTF_8);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the reports to " + directory, e);
        }
    }
}
