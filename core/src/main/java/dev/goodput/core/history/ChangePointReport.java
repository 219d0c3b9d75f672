package dev.goodput.core.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The nightly check of a history file: prints every change point of every test and figure, and exits with 1 when a
 * change point among a test's last {@code --last} entries is a regression (a latency or the error rate up, goodput
 * or a throughput down), 0 otherwise, 2 on a usage error or an unreadable file (a path with no file included).
 *
 * <pre>{@code
 * java -cp goodput-core.jar:... dev.goodput.core.history.ChangePointReport target/goodput-history.jsonl \
 *     --last 10 --window 30 --max-p 0.001 --min-change 0.05 --min-points 5
 * }</pre>
 *
 * A shift is found once {@code --min-points} entries after it exist, and stays within the last {@code --last}
 * entries for that many more nights: the job stays red until the regression is fixed (a shift back) or ages out.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class ChangePointReport {

    /** The entries at the end of each test's series in which a regression fails the check, by default. */
    public static final int DEFAULT_LAST = 10;

    static final String USAGE = "usage: ChangePointReport <history.jsonl> [--last N (default " + DEFAULT_LAST
            + ")] [--window N (default " + ChangePoints.DEFAULT_WINDOW + ")] [--max-p P (default "
            + ChangePoints.DEFAULT_MAX_P_VALUE + ")] [--min-change C (default " + ChangePoints.DEFAULT_MIN_CHANGE
            + ", that is 5 %)] [--min-points N (default " + ChangePoints.DEFAULT_MIN_POINTS_PER_SIDE + ")]";

    private ChangePointReport() {}

    /** Runs the check on the command line's arguments and exits with its code. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the check, printing to {@code out} and errors to {@code err}; returns the exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Path file = null;
        int last = DEFAULT_LAST;
        ChangePoints detector = ChangePoints.defaults();
        try {
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (!arg.startsWith("--")) {
                    if (file != null) {
                        throw new IllegalArgumentException("one history file only, got " + file + " and " + arg);
                    }
                    file = Path.of(arg);
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                String value = args[++i];
                switch (arg) {
                    case "--last" -> last = positive(arg, value);
                    case "--window" -> detector = detector.window(positive(arg, value));
                    case "--max-p" -> detector = detector.maxPValue(number(arg, value));
                    case "--min-change" -> detector = detector.minChange(number(arg, value));
                    case "--min-points" -> detector = detector.minPointsPerSide(positive(arg, value));
                    default -> throw new IllegalArgumentException("unknown option " + arg);
                }
            }
            if (file == null) {
                throw new IllegalArgumentException("no history file given");
            }
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (!Files.isRegularFile(file)) {
            // RunHistory reads a missing file as a history not yet started; a nightly check given a wrong path
            // would then pass for ever.
            err.println("no history file at " + file.toAbsolutePath()
                    + (Files.exists(file) ? " (it is not a file)" : " (it does not exist)"));
            return 2;
        }
        Map<String, List<HistoryEntry>> tests;
        try {
            tests = RunHistory.byTest(RunHistory.read(file));
        } catch (HistoryFileException e) {
            err.println(e.getMessage());
            return 2;
        }
        return report(tests, detector, last, out);
    }

    private static int report(Map<String, List<HistoryEntry>> tests, ChangePoints detector, int last, PrintStream out) {
        List<String> regressions = new ArrayList<>();
        for (Map.Entry<String, List<HistoryEntry>> test : tests.entrySet()) {
            List<HistoryEntry> entries = test.getValue();
            out.println(test.getKey() + " (" + entries.size() + " entries)");
            int found = 0;
            for (List<ChangePoint> points : detector.findAll(entries).values()) {
                for (ChangePoint point : points) {
                    found++;
                    boolean recent = point.index() >= entries.size() - last;
                    String flag = point.isRegression() ? (recent ? "  REGRESSION" : "  regression, older") : "";
                    out.println("  entry " + (point.index() + 1) + ": " + point.describe() + flag);
                    if (point.isRegression() && recent) {
                        regressions.add(test.getKey() + ": " + point.describe());
                    }
                }
            }
            if (found == 0) {
                out.println("  no change point");
            }
        }
        if (tests.isEmpty()) {
            out.println("no entries in the history file");
        }
        if (regressions.isEmpty()) {
            out.println("no regression in the last " + last + " entries of any test");
            return 0;
        }
        out.println(regressions.size() + " regression(s) in the last " + last + " entries:");
        regressions.forEach(line -> out.println("  " + line));
        return 1;
    }

    private static int positive(String option, String value) {
        try {
            int number = Integer.parseInt(value);
            if (number >= 1) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " = '" + value + "' is not a whole number of at least 1");
    }

    private static double number(String option, String value) {
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " = '" + value + "' is not a number");
        }
    }
}
