package dev.goodput.junit;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.compare.BaselineComparator;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.Comparison;
import dev.goodput.core.compare.RunDigest;
import dev.goodput.core.report.GateReport;
import dev.goodput.core.report.Reports;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.TrialSummary;
import dev.goodput.core.slo.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Runs an annotated gate's trials under its noise policy ({@link Trials}), writes every attempt's reports, keeps the
 * gate's digest beside them, and compares it with the gate's baseline when there is one (or records it). A
 * comparison that may hide a regression (an INCONCLUSIVE metric whose estimate is worse by at least the minimum
 * change) gets another trial while the noise policy allows.
 */
final class GateTrials {

    private GateTrials() {}

    /**
     * What the gate ran and found.
     *
     * @param summary the counted trials judged together
     * @param attempts every run, counted or not
     * @param comparison the comparison with the baseline, or {@code null} when there was none to make
     * @param baselineNote what happened about the baseline, for example "no baseline at ..."
     */
    /** The trials' summary, their attempts, the comparison with a baseline, and the message the gate fails with. */
    record Outcome(
            TrialSummary summary,
            List<GateReport.Attempt> attempts,
            Comparison comparison,
            String baselineNote,
            Optional<String> failure) {

        RunResult last() {
            return summary.trials().get(summary.trials().size() - 1);
        }
    }

    /** Runs the gate's trials, each from the same server state ({@link TrialReset}). */
    static Outcome run(GateContext gate, RunSpec spec) {
        TrialReset reset = TrialReset.of(gate, trialsAnnotation(gate));
        return run(gate, spec, () -> {
            reset.beforeRun(spec);
            return Goodput.run(spec);
        });
    }

    private static Trials trialsAnnotation(GateContext gate) {
        return GateDefinition.nearest(
                        gate.context().getRequiredTestClass(), gate.context().getRequiredTestMethod(), Trials.class)
                .orElse(null);
    }

    /**
     * Runs the gate with each run's result from {@code runs} (the merge of a sharded run's outputs, which comes once:
     * its caller refuses more than one trial).
     */
    static Outcome run(GateContext gate, RunSpec spec, Supplier<RunResult> runs) {
        RegressionSettings settings = RegressionSettings.from(gate.context());
        Trials annotation = trialsAnnotation(gate);
        int annotated = annotation == null ? 1 : annotation.value();
        int retries = annotation == null ? 0 : annotation.retries();
        if (annotated < 1 || retries < 0) {
            throw new ExtensionConfigurationException("@Trials on " + gate.name() + ": value = " + annotated
                    + " and retries = " + retries + "; value must be at least 1 and retries at least 0");
        }
        Path gateDirectory = gate.reportDirectory(0);
        Path relative = gate.configuration().reportDirectory().relativize(gateDirectory);
        Path baselineFile = settings.baselineFile(relative);
        // Read before any load: a baseline that cannot be read must not cost the run its verdict afterwards.
        Baseline baseline = settings.record() ? Baseline.NONE : Baseline.read(baselineFile);
        int count = settings.trials(annotated);
        boolean plain = count == 1 && retries == 0;
        List<RunResult> kept = new ArrayList<>();
        List<GateReport.Attempt> attempts = new ArrayList<>();
        int extraRuns = 0;
        for (int trial = 1; trial <= count; trial++) {
            for (int attempt = 1; ; attempt++) {
                RunResult result = runs.get();
                boolean again = needsAnotherAttempt(result) && extraRuns < retries;
                String link = plain ? Reports.HTML_FILE : directoryName(trial, attempt) + "/" + Reports.HTML_FILE;
                Path directory = plain
                        ? gate.reportDirectory(0)
                        : gate.reportDirectory(0).resolve(directoryName(trial, attempt));
                GateReports.writeAttempt(gate, result, directory, title(gate, plain, trial, count, attempt));
                attempts.add(
                        new GateReport.Attempt(trial, attempt, link, result, !again, again ? reason(result) : null));
                if (!again) {
                    kept.add(result);
                    GateHistory.append(gate, result, 0);
                    break;
                }
                extraRuns++;
                System.out.println("NOISE POLICY: " + gate.name() + " trial " + trial + " runs again: " + reason(result)
                        + " (" + (retries - extraRuns) + " extra run(s) left)");
            }
        }
        RunDigest digest = RunDigest.of(gate.name(), kept);
        digest.write(gateDirectory.resolve(RegressionSettings.BASELINE_FILE));
        if (settings.record()) {
            digest.write(baselineFile);
            System.out.println("baseline recorded: " + baselineFile.toAbsolutePath());
            return finish(gate, kept, attempts, null, "baseline recorded at " + baselineFile, plain);
        }
        if (baseline == Baseline.NONE) {
            return finish(gate, kept, attempts, null, "no baseline at " + baselineFile, plain);
        }
        BaselineComparator comparator = BaselineComparator.defaults()
                .minimumChange(settings.minimumChange())
                .objectives(spec.objectives());
        if (baseline.digest() == null) {
            return finish(
                    gate,
                    kept,
                    attempts,
                    comparator.unreadable(baseline.unreadable(), digest),
                    "unreadable baseline at " + baselineFile,
                    false);
        }
        Comparison comparison = comparator.compare(baseline.digest(), digest);
        while (possibleRegression(comparison) && extraRuns < retries) {
            extraRuns++;
            int trial = kept.size() + 1;
            System.out.println("NOISE POLICY: " + gate.name() + " is inconclusive against its baseline; trial " + trial
                    + " added (" + (retries - extraRuns) + " extra run(s) left)");
            RunResult result = runs.get();
            String name = directoryName(trial, 1);
            GateReports.writeAttempt(gate, result, gateDirectory.resolve(name), title(gate, false, trial, trial, 1));
            attempts.add(new GateReport.Attempt(trial, 1, name + "/" + Reports.HTML_FILE, result, true, null));
            kept.add(result);
            GateHistory.append(gate, result, 0);
            digest = RunDigest.of(gate.name(), kept);
            digest.write(gateDirectory.resolve(RegressionSettings.BASELINE_FILE));
            comparison = comparator.compare(baseline.digest(), digest);
        }
        return finish(gate, kept, attempts, comparison, "compared with " + baselineFile, false);
    }

    private static Outcome finish(
            GateContext gate,
            List<RunResult> kept,
            List<GateReport.Attempt> attempts,
            Comparison comparison,
            String baselineNote,
            boolean plain) {
        TrialSummary summary = TrialSummary.of(kept);
        Outcome outcome = new Outcome(
                summary, attempts, comparison, baselineNote, GateVerdict.failureMessage(gate, summary, comparison));
        if (comparison != null) {
            comparison.describe().forEach(System.out::println);
        }
        if (!plain || comparison != null) {
            GateReports.writeGate(gate, outcome);
        } else {
            GateReports.removeGatePage(gate);
        }
        return outcome;
    }

    /**
     * Returns whether more data could turn the comparison into a REGRESSED: a metric is INCONCLUSIVE while its
     * estimate is worse by at least the minimum change.
     */
    static boolean possibleRegression(Comparison comparison) {
        return comparison.changes().stream()
                .anyMatch(change -> change.verdict() == ChangeVerdict.INCONCLUSIVE
                        && (change.lowerIsBetter() ? change.change() : -change.change()) >= comparison.minimumChange());
    }

    static boolean needsAnotherAttempt(RunResult result) {
        return !result.clientHealth().trustworthy()
                || result.verdicts().stream().anyMatch(verdict -> verdict.verdict() == Verdict.INCONCLUSIVE);
    }

    private static String reason(RunResult result) {
        if (!result.clientHealth().trustworthy()) {
            return result.clientHealth().reason();
        }
        return result.verdicts().stream()
                .filter(verdict -> verdict.verdict() == Verdict.INCONCLUSIVE)
                .map(verdict -> verdict.objective() + " inconclusive (" + verdict.reason() + ")")
                .findFirst()
                .orElse("");
    }

    /** A gate's baseline as read before its load: none, its digest, or why it cannot be read. */
    private record Baseline(RunDigest digest, String unreadable) {
        static final Baseline NONE = new Baseline(null, null);

        static Baseline read(Path file) {
            if (!Files.exists(file)) {
                return NONE;
            }
            try {
                return new Baseline(RunDigest.read(file), null);
            } catch (IllegalArgumentException e) {
                return new Baseline(null, e.getMessage());
            }
        }
    }

    private static String directoryName(int trial, int attempt) {
        return "trial-" + trial + (attempt == 1 ? "" : "-attempt-" + attempt);
    }

    private static String title(GateContext gate, boolean plain, int trial, int count, int attempt) {
        if (plain) {
            return gate.title(0);
        }
        return gate.title(0) + " trial " + trial + "/" + count + (attempt == 1 ? "" : " attempt " + attempt);
    }
}
