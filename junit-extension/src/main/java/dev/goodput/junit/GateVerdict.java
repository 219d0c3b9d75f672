package dev.goodput.junit;

import dev.goodput.core.ObjectiveVerdict;
import dev.goodput.core.Outcome;
import dev.goodput.core.RunResult;
import dev.goodput.core.Verdict;
import java.nio.file.Path;
import java.util.List;
import org.opentest4j.AssertionFailedError;

/**
 * Judges a gate after the test body: the test fails when an objective is violated, or inconclusive under the
 * default policy, and the message lists every objective with its measured value, interval, bound and unit, and
 * why requests failed.
 */
final class GateVerdict {

    /** The most reasons of failed requests the message lists. */
    static final int REASONS = 5;

    private GateVerdict() {}

    static void judge(GateContext gate, RunResult result) {
        GoodputConfiguration configuration = gate.configuration();
        List<ObjectiveVerdict> failing = failing(result, configuration.failOnInconclusive());
        String name = gate.name();
        String serverSource = gate.server().source();
        Path reports = gate.reportDirectory(0);
        boolean untrustworthy = !result.clientHealth().trustworthy();
        if (!failing.isEmpty() || (untrustworthy && configuration.failOnUntrustworthyClient())) {
            throw new AssertionFailedError(message(name, result, serverSource, reports, failing.size()));
        }
        if (untrustworthy) {
            System.out.println("WARNING: " + name + " passes although "
                    + result.clientHealth().reason() + ", because " + GoodputConfiguration.CLIENT_UNTRUSTWORTHY
                    + "=warn");
        }
        long inconclusive = result.verdicts().stream()
                .filter(v -> v.verdict() == Verdict.INCONCLUSIVE)
                .count();
        if (inconclusive > 0) {
            System.out.println("WARNING: " + inconclusive + " inconclusive objective(s) in " + name
                    + " pass because goodput.slo.inconclusive=warn");
        }
    }

    /** Returns the verdicts that fail the test under the given policy. */
    static List<ObjectiveVerdict> failing(RunResult result, boolean failOnInconclusive) {
        return result.verdicts().stream()
                .filter(v ->
                        v.verdict() == Verdict.VIOLATED || (failOnInconclusive && v.verdict() == Verdict.INCONCLUSIVE))
                .toList();
    }

    /**
     * Returns the failure message: a headline, every objective, the load and the server (its URL and model, and
     * where that choice came from), the accounting, why requests did not succeed (the {@value #REASONS} most
     * frequent reasons with their counts), the reports.
     */
    static String message(String name, RunResult result, String serverSource, Path reports, int failing) {
        StringBuilder message = new StringBuilder().append(name).append(": ");
        if (failing == 0 && !result.clientHealth().trustworthy()) {
            message.append("the run is not trustworthy, so its objectives cannot pass\n");
        } else {
            message.append(failing)
                    .append(" of ")
                    .append(result.verdicts().size())
                    .append(" objectives not met\n");
        }
        for (ObjectiveVerdict verdict : result.verdicts()) {
            message.append("  ").append(verdict.describe()).append('\n');
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
