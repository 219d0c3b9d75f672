package dev.goodput.junit;

import dev.goodput.core.history.HistoryEntry;
import dev.goodput.core.history.RunHistory;
import dev.goodput.core.report.ReportIndex;
import dev.goodput.core.result.RunResult;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Appends a gate's runs to the history file ({@value GoodputConfiguration#HISTORY_FILE}) and writes the report index
 * with that history's trends. The commit and branch come from {@value GoodputConfiguration#HISTORY_COMMIT} and
 * {@value GoodputConfiguration#HISTORY_BRANCH}, else from GitHub Actions' or GitLab CI's variables, else stay empty.
 * The history is an aid, not a gate: a history that cannot be written is one warning line, never a failed test.
 */
final class GateHistory {

    private GateHistory() {}

    /** Appends one run's entry (0 is the annotated run, 1.. a runner's runs) when a history file is configured. */
    static void append(GateContext gate, RunResult result, int run) {
        ExtensionContext context = gate.context();
        Optional<String> file = GoodputConfiguration.parameter(context, GoodputConfiguration.HISTORY_FILE);
        if (file.isEmpty()) {
            return;
        }
        try {
            Path root = gate.configuration().reportDirectory();
            String testId =
                    root.relativize(gate.reportDirectory(run)).toString().replace('\\', '/');
            String commit = parameterOrEnvironment(
                    GoodputConfiguration.parameter(context, GoodputConfiguration.HISTORY_COMMIT),
                    System::getenv,
                    "GITHUB_SHA",
                    "CI_COMMIT_SHA");
            String branch = parameterOrEnvironment(
                    GoodputConfiguration.parameter(context, GoodputConfiguration.HISTORY_BRANCH),
                    System::getenv,
                    "GITHUB_REF_NAME",
                    "CI_COMMIT_REF_NAME");
            RunHistory.append(Path.of(file.get()), HistoryEntry.of(testId, result, commit, branch));
        } catch (Exception e) {
            System.err.println("WARNING: " + gate.name() + ": cannot append to the history file "
                    + GoodputConfiguration.HISTORY_FILE + " = '" + file.get() + "': " + e);
        }
    }

    /**
     * Updates the report index with the pages the gate wrote into {@code written}, with the history's trend charts
     * when a history file is configured.
     */
    static void writeIndex(GateContext gate, Path written) {
        Path root = gate.configuration().reportDirectory();
        Path history = null;
        Optional<String> file = GoodputConfiguration.parameter(gate.context(), GoodputConfiguration.HISTORY_FILE);
        try {
            history = file.map(Path::of).orElse(null);
        } catch (InvalidPathException e) {
            // append() has warned about this value already; the index is written without the history.
        }
        ReportIndex.update(root, written, history);
    }

    /** Returns the parameter's value, else the first environment variable set, else empty. */
    static String parameterOrEnvironment(
            Optional<String> parameter, Function<String, String> environment, String... names) {
        if (parameter.isPresent()) {
            return parameter.get();
        }
        for (String name : names) {
            String value = environment.apply(name);
            if (value != null && !value.isBlank()) {
                return value.trim();
            }
        }
        return "";
    }
}
