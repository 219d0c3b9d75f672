package dev.goodput.junit;

import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.compare.Comparison;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.TrialSummary;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.Verdict;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.opentest4j.AssertionFailedError;

/**
 * Judges a gate after the test body: the test fails when an objective is violated, or inconclusive under the
 * default policy, and the message lists every objective with its measured value, interval, bound and unit, and
 * why requests failed.
 */
final class GateVerdict {

    /** The most reasons of failed requests the message lists. */
    static final int REASONS = 5;

    /** How many times each gate (by name) has been judged in this JVM: a test seam, to show each is judged once. */
    static final Map<String, AtomicInteger> JUDGEMENTS = new ConcurrentHashMap<>();

    private GateVerdict() {}

    static void judge(GateContext gate, GateTrials.Outcome outcome) {
        Optional<String> failure = outcome.failure();
        if (failure.isPresent()) {
            throw new AssertionFailedError(failure.get());
        }
        String name = gate.name();
        for (RunResult trial : outcome.summary().trials()) {
            if (!trial.clientHealth().trustworthy()) {
                System.out.println("WARNING: " + name + " passes although "
                        + trial.clientHealth().reason() + ", because " + GoodputConfiguration.CLIENT_UNTRUSTWORTHY
                        + "=warn");
            }
        }
        long inconclusive = outcome.summary().verdicts().stream()
                .filter(v -> v.verdict() == Verdict.INCONCLUSIVE)
                .count();
        if (inconclusive > 0) {
            System.out.println("WARNING: " + inconclusive + " inconclusive objective(s) in " + name
                    + " pass because goodput.slo.inconclusive=warn");
        }
        Comparison comparison = outcome.comparison();
        if (comparison != null && comparison.verdict() == ChangeVerdict.REGRESSED) {
            System.out.println("WARNING: " + name + " passes although " + comparison.headline() + ", because "
                    + RegressionSettings.BASELINE_REGRESSION + "=warn");
        }
        if (comparison != null && comparison.verdict() == ChangeVerdict.INVALID) {
            System.out.println("WARNING: " + name + " was not compared with its baseline: "
                    + comparison.headline() + " (record a new baseline, or set " + RegressionSettings.BASELINE_INVALID
                    + "=fail to fail such gates)");
        }
    }

    /**
     * Returns the message the gate fails with, or empty when it passes: an objective over the trials violated (or
     * inconclusive under the default policy), a trial whose client could not keep up (unless told to warn), or a
     * regression against the baseline (unless told to warn), an invalid comparison when told to fail, or a trial
     * stopped early because the server was gone. Judged once, when the trials end
     * ({@link GateTrials.Outcome#failure}): the gate page and the test's verdict read the same judgement.
     */
    static Optional<String> failureMessage(GateContext gate, TrialSummary summary, Comparison comparison) {
        JUDGEMENTS.computeIfAbsent(gate.name(), name -> new AtomicInteger()).incrementAndGet();
        GoodputConfiguration configuration = gate.configuration();
        RegressionSettings regression = RegressionSettings.from(gate.context());
        List<SloVerdict> verdicts = summary.verdicts();
        List<SloVerdict> failing = failing(verdicts, configuration.failOnInconclusive());
        RunResult untrustworthy = summary.trials().stream()
                .filter(trial -> !trial.clientHealth().trustworthy())
                .findFirst()
                .orElse(null);
        boolean regressed =
                comparison != null && comparison.verdict() == ChangeVerdict.REGRESSED && regression.failOnRegression();
        boolean invalid =
                comparison != null && comparison.verdict() == ChangeVerdict.INVALID && regression.failOnInvalid();
        boolean failsUntrustworthy = untrustworthy != null && configuration.failOnUntrustworthyClient();
        RunResult stopped = summary.trials().stream()
                .filter(RunResult::stoppedEarly)
                .findFirst()
                .orElse(null);
        if (failing.isEmpty() && !failsUntrustworthy && !regressed && !invalid && stopped == null) {
            return Optional.empty();
        }
        RunResult shown = stopped != null
                ? stopped
                : untrustworthy != null
                        ? untrustworthy
                        : summary.trials().get(summary.trials().size() - 1);
        return Optional.of(message(
                gate.name(),
                shown,
                verdicts,
                gate.server().source(),
                gate.reportDirectory(0),
                failing.size(),
                summary.trials().size(),
                comparison != null && (regressed || invalid || !failing.isEmpty()) ? comparison : null));
    }

    /** Returns the verdicts that fail the test under the given policy. */
    static List<SloVerdict> failing(List<SloVerdict> verdicts, boolean failOnInconclusive) {
        return verdicts.stream()
                .filter(v ->
                        v.verdict() == Verdict.VIOLATED || (failOnInconclusive && v.verdict() == Verdict.INCONCLUSIVE))
                .toList();
    }

    /**
     * Returns the failure message: a headline, every objective, the load and the server (its URL and model, and
     * where that choice came from), the accounting, why requests did not succeed (the {@value #REASONS} most
     * frequent reasons with their counts), the reports.
     */
    static String message(
            String name,
            RunResult result,
            List<SloVerdict> verdicts,
            String serverSource,
            Path reports,
            int failing,
            int trials) {
        return message(name, result, verdicts, serverSource, reports, failing, trials, null);
    }

    /**
     * Returns the failure message with, when {@code comparison} is not null, the comparison with the baseline after
     * the objectives: a gate that failed on it says so in its first line and gives the same load, requests and
     * reports lines as one that failed an objective.
     */
    static String message(
            String name,
            RunResult result,
            List<SloVerdict> verdicts,
            String serverSource,
            Path reports,
            int failing,
            int trials,
            Comparison comparison) {
        StringBuilder message = new StringBuilder().append(name).append(": ");
        String over = trials > 1 ? " over " + trials + " trials" : "";
        if (result.stoppedEarly()) {
            message.append("the run was stopped early: ")
                    .append(result.stopReason())
                    .append('\n');
        } else if (failing == 0 && !result.clientHealth().trustworthy()) {
            message.append("the run is not trustworthy, so its objectives cannot pass\n");
        } else if (failing == 0 && comparison != null) {
            message.append(comparison.headline())
                    .append(" (objectives met")
                    .append(over)
                    .append(")\n");
        } else {
            message.append(failing)
                    .append(" of ")
                    .append(verdicts.size())
                    .append(" objectives not met")
                    .append(over)
                    .append('\n');
        }
        for (SloVerdict verdict : verdicts) {
            message.append("  ").append(verdict.describe()).append('\n');
        }
        if (result.runLength().untilDecided()) {
            message.append("run length: ")
                    .append(result.runLength().stopReason())
                    .append('\n');
        }
        if (comparison != null) {
            comparison.describe().forEach(line -> message.append(line).append('\n'));
        }
        var accounting = result.accounting();
        message.append("load: ")
                .append(result.spec().load())
                .append(" against ")
                .append(result.spec().server())
                .append(" from ")
                .append(serverSource)
                .append('\n');
        message.append("requests: ")
                .append(accounting.scheduled())
                .append(" scheduled, ")
                .append(accounting.count(Outcome.SUCCESS))
                .append(" succeeded, ")
                .append(accounting.count(Outcome.FAILED))
                .append(" failed, ")
                .append(accounting.count(Outcome.TIMED_OUT))
                .append(" timed out, ")
                .append(accounting.count(Outcome.CANCELLED))
                .append(" cancelled (")
                .append(accounting.measured())
                .append(" measured)\n");
        for (String failure : result.failures().describe(REASONS, "  ")) {
            message.append(failure).append('\n');
        }
        if (!result.clientHealth().trustworthy()) {
            message.append("client: ")
                    .append(result.clientHealth().reason())
                    .append(" (on a busy machine raise " + GoodputConfiguration.CLIENT_SEND_LAG_LIMIT + " or set "
                            + GoodputConfiguration.CLIENT_UNTRUSTWORTHY + "=warn)\n");
        }
        message.append("reports: ").append(reports);
        return message.toString();
    }
}
