package dev.goodput.junit;

import dev.goodput.core.compare.BaselineComparator;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The configuration parameters of trials and baseline comparisons (see {@code docs/ci-gates.md}).
 *
 * @param trialScale what {@link Trials#value()} is multiplied by
 * @param baselineDirectory where baselines are read from, {@code <dir>/<TestClass>/<method>/baseline.json}, the
 *     layout of a report directory, so that a main branch's report directory is a baseline directory
 * @param record whether to write this run's digest there instead of comparing with it
 * @param minimumChange the smallest relative change that counts as one
 * @param failOnRegression whether a REGRESSED comparison fails the test (else it warns)
 * @param failOnInvalid whether an INVALID comparison fails the test (else it warns)
 */
record RegressionSettings(
        double trialScale,
        Path baselineDirectory,
        boolean record,
        double minimumChange,
        boolean failOnRegression,
        boolean failOnInvalid) {

    static final String TRIALS_SCALE = "goodput.trials.scale";
    static final String BASELINE_DIR = "goodput.baseline.dir";
    static final String BASELINE_RECORD = "goodput.baseline.record";
    static final String BASELINE_MINIMUM_CHANGE = "goodput.baseline.minimum-change-percent";
    static final String BASELINE_REGRESSION = "goodput.baseline.regression";
    static final String BASELINE_INVALID = "goodput.baseline.invalid";

    /** The default baseline directory, relative to the working directory (a Maven module's base directory). */
    static final String DEFAULT_BASELINE_DIR = "src/test/goodput-baselines";

    /** The file of a gate's baseline inside its directory. */
    static final String BASELINE_FILE = "baseline.json";

    static final Set<String> KEYS = Set.of(
            TRIALS_SCALE,
            BASELINE_DIR,
            BASELINE_RECORD,
            BASELINE_MINIMUM_CHANGE,
            BASELINE_REGRESSION,
            BASELINE_INVALID);

    static RegressionSettings from(ExtensionContext context) {
        double scale = GoodputConfiguration.parameter(context, TRIALS_SCALE)
                .map(value -> positive(TRIALS_SCALE, value, "for example 3 for a nightly job"))
                .orElse(1.0);
        Path directory =
                Path.of(GoodputConfiguration.parameter(context, BASELINE_DIR).orElse(DEFAULT_BASELINE_DIR));
        boolean record = GoodputConfiguration.parameter(context, BASELINE_RECORD)
                .map(value -> trueOrFalse(BASELINE_RECORD, value))
                .orElse(false);
        double minimumChange = GoodputConfiguration.parameter(context, BASELINE_MINIMUM_CHANGE)
                .map(value -> percent(BASELINE_MINIMUM_CHANGE, value))
                .orElse(BaselineComparator.DEFAULT_MINIMUM_CHANGE);
        boolean failOnRegression = GoodputConfiguration.parameter(context, BASELINE_REGRESSION)
                .map(value -> GoodputConfiguration.failOrWarn(BASELINE_REGRESSION, value))
                .orElse(true);
        boolean failOnInvalid = GoodputConfiguration.parameter(context, BASELINE_INVALID)
                .map(value -> GoodputConfiguration.failOrWarn(BASELINE_INVALID, value))
                .orElse(false);
        return new RegressionSettings(scale, directory, record, minimumChange, failOnRegression, failOnInvalid);
    }

    /** Returns the number of trials for an annotated count: the count times the scale, rounded, at least 1. */
    int trials(int annotated) {
        return (int) Math.max(1, Math.round(annotated * trialScale));
    }

    /** Returns where a gate's baseline lives, given its report directory relative to the report root. */
    Path baselineFile(Path relativeGateDirectory) {
        return baselineDirectory.resolve(relativeGateDirectory).resolve(BASELINE_FILE);
    }

    private static double positive(String key, String value, String example) {
        try {
            double number = Double.parseDouble(value);
            if (number > 0 && Double.isFinite(number)) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ExtensionConfigurationException(
                "configuration parameter " + key + " = '" + value + "' is not a number above 0 (" + example + ")");
    }

    private static double percent(String key, String value) {
        try {
            double number = Double.parseDouble(value);
            if (number >= 0 && number < 100) {
                return number / 100;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ExtensionConfigurationException("configuration parameter " + key + " = '" + value
                + "' is not a percentage from 0 to below 100 (for example 10)");
    }

    private static boolean trueOrFalse(String key, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default ->
                throw new ExtensionConfigurationException(
                        "configuration parameter " + key + " = '" + value + "' must be 'true' or 'false'");
        };
    }
}
