package dev.goodput.junit.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.Function;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestPlan;

/**
 * Writes {@code <goodput.report.dir>/summary.md} at the end of a test session that ran gates, and appends it to the
 * file {@code GITHUB_STEP_SUMMARY} names, so a CI job shows its gates without opening a report. Registered through
 * {@code META-INF/services}: every launcher that auto-registers listeners (Surefire, Gradle, IDEs) picks it up.
 *
 * <p>A {@link TestExecutionListener}, not a {@code LauncherSessionListener}: only it is handed the {@link TestPlan},
 * whose configuration parameters say where this session's reports go ({@code goodput.report.dir} from
 * {@code junit-platform.properties}, the launcher or a system property), on Platform 1.x and 6 alike.
 *
 * <p>The summary never fails a build: any problem writing it is one warning line on standard error.
 */
public final class SessionSummaryListener implements TestExecutionListener {

    /** The same key, and the same default, as the extension's configuration uses for its reports. */
    static final String REPORT_DIR = "goodput.report.dir";

    static final Path DEFAULT_REPORT_DIR = Path.of("target", "goodput");
    static final String STEP_SUMMARY_VARIABLE = "GITHUB_STEP_SUMMARY";

    private final Function<String, String> environment;
    private final Clock clock;

    /** The first plan's start: a launcher that executes several plans writes one summary covering them all. */
    private Instant sessionStart;

    private Path reportDirectory = DEFAULT_REPORT_DIR;

    /** Called by {@link java.util.ServiceLoader}. */
    public SessionSummaryListener() {
        this(System::getenv, Clock.systemUTC());
    }

    SessionSummaryListener(Function<String, String> environment, Clock clock) {
        this.environment = environment;
        this.clock = clock;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        if (sessionStart == null) {
            // Whole seconds: a file system with coarse timestamps may date a page written now a little earlier.
            sessionStart = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        }
        try {
            reportDirectory = testPlan.getConfigurationParameters()
                    .get(REPORT_DIR)
                    .map(Path::of)
                    .orElse(DEFAULT_REPORT_DIR);
        } catch (RuntimeException e) {
            warn("cannot read " + REPORT_DIR + " (" + e + "); looking in " + reportDirectory);
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (sessionStart != null) {
            write(reportDirectory, sessionStart);
        }
    }

    /** Writes the summary of the pages below {@code directory} written since {@code since}, if there are any. */
    void write(Path directory, Instant since) {
        Optional<String> markdown;
        try {
            markdown = SessionSummary.markdown(directory, since);
        } catch (RuntimeException e) {
            warn("cannot read the reports in " + directory + ": " + e);
            return;
        }
        if (markdown.isEmpty()) {
            return;
        }
        Path summary = directory.resolve(SessionSummary.FILE);
        try {
            Files.writeString(summary, markdown.get(), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            warn("cannot write " + summary + ": " + e);
        }
        String stepSummary = environment.apply(STEP_SUMMARY_VARIABLE);
        if (stepSummary != null && !stepSummary.isBlank()) {
            try {
                Files.writeString(
                        Path.of(stepSummary),
                        markdown.get(),
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException | RuntimeException e) {
                warn("cannot append the summary to " + STEP_SUMMARY_VARIABLE + " (" + stepSummary + "): " + e);
            }
        }
    }

    private static void warn(String message) {
        System.err.println("goodput: session summary: " + message);
    }
}
