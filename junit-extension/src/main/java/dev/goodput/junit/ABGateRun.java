package dev.goodput.junit;

import dev.goodput.core.PreflightException;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.ab.ABResult;
import dev.goodput.core.ab.ABRun;
import dev.goodput.core.ab.PairedChange;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.core.report.ABReport;
import dev.goodput.core.report.ReportIndex;
import dev.goodput.core.slo.SloVerdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.opentest4j.AssertionFailedError;

/**
 * An {@link ABGate} test: reads both servers, starts them, runs the A/B run, writes its page, and after the test
 * body fails the test on a regression or a missed objective of the candidate.
 */
final class ABGateRun {

    private static final String KEY = "ab";

    private ABGateRun() {}

    /** The result, for the body and the verdict, and the failure message or {@code null}. */
    record Outcome(ABResult result, String failure) {}

    static void run(GateContext gate, ABGate annotation) {
        String where = gate.name();
        if (gate.definition().load().isEmpty() || gate.definition().sweep().isPresent()) {
            throw new ExtensionConfigurationException("@ABGate on " + where
                    + " needs one block's load: add @LoadProfile (its requests are one block), not @LoadSweep");
        }
        ServerVariant baseline = read(gate.context(), "baseline", annotation.baseline(), where);
        ServerVariant candidate = read(gate.context(), "candidate", annotation.candidate(), where);
        AnnotationSettings settings = new AnnotationSettings("@ABGate", where)
                .map("minimumChange", "minimumChange", annotation.minimumChange())
                .map("pairs.first", "firstLookPairs", annotation.firstLookPairs())
                .map("pairs.max", "maxPairs", annotation.maxPairs());
        // The attributes are checked on a run that is never started, so that a wrong value is refused before
        // either server starts (a container may take minutes).
        ServerEndpoint unstarted = ServerEndpoint.of("http://127.0.0.1:1", "not-started");
        settings.apply(() -> ABRun.newRun(unstarted, unstarted)
                .minimumChange(annotation.minimumChange())
                .pairs(annotation.firstLookPairs(), annotation.maxPairs()));
        ABResult result;
        try (ServerVariant.Running base = baseline.start();
                ServerVariant.Running next = candidate.start()) {
            result = settings.apply(() -> ABRun.newRun(base.endpoint(), next.endpoint())
                            .workload(gate.definition().workload())
                            .load(gate.definition().load().orElseThrow())
                            .objectives(gate.definition().objectives())
                            .minimumChange(annotation.minimumChange())
                            .pairs(annotation.firstLookPairs(), annotation.maxPairs())
                            .seed(annotation.seed())
                            .preflight(gate.configuration().preflight())
                            .progress(line -> System.out.println(where + " A/B " + line)))
                    .run();
        } catch (PreflightException e) {
            throw new AssertionFailedError(
                    where + ": " + e.getMessage() + "\nno load was sent (" + GoodputConfiguration.PREFLIGHT
                            + "=off skips this check)",
                    e);
        }
        List<String> why = why(gate, result);
        String failure = why.isEmpty() ? null : where + ": " + String.join("\n", why);
        Path directory = gate.reportDirectory(0);
        ABReport report = ABReport.of(result, gate.title(0), failure == null ? "PASSED" : "FAILED", why);
        Path page = report.write(directory);
        ReportIndex.update(gate.configuration().reportDirectory(), directory, null);
        System.out.println(where + ": A/B " + result.headline());
        for (PairedChange change : result.changes()) {
            System.out.println("  " + change.describe());
        }
        System.out.println("reports: " + page);
        gate.context().getStore(GoodputExtension.NAMESPACE).put(KEY, new Outcome(result, failure));
        if (failure == null && result.verdict() == ChangeVerdict.INCONCLUSIVE) {
            System.out.println(where + ": passed with INCONCLUSIVE changes: "
                    + result.runLength().stopReason());
        }
    }

    private static List<String> why(GateContext gate, ABResult result) {
        List<String> why = new ArrayList<>();
        if (result.verdict() == ChangeVerdict.REGRESSED) {
            why.add("REGRESSED against the baseline: " + result.headline());
        }
        List<SloVerdict> failing = GateVerdict.failing(
                result.candidate().verdicts(), gate.configuration().failOnInconclusive());
        for (SloVerdict objective : failing) {
            why.add("candidate objective not met: " + objective.describe());
        }
        return why;
    }

    /** Fails the test when the A/B run found a regression or the candidate missed an objective. */
    static void judge(ExtensionContext context) {
        Outcome outcome = context.getStore(GoodputExtension.NAMESPACE).get(KEY, Outcome.class);
        if (outcome != null && outcome.failure() != null) {
            throw new AssertionFailedError(outcome.failure());
        }
    }

    /** Returns the result for an {@link ABResult} parameter. */
    static ABResult result(ExtensionContext context) {
        Outcome outcome = context.getStore(GoodputExtension.NAMESPACE).get(KEY, Outcome.class);
        if (outcome == null) {
            throw new ParameterResolutionException("an ABResult parameter needs an A/B gate: add @ABGate to "
                    + context.getRequiredTestMethod().getName() + "()");
        }
        return outcome.result();
    }

    /** Reads one side's server from the method the annotation names, refusing a wrong method before any load. */
    static ServerVariant read(ExtensionContext context, String attribute, String methodName, String where) {
        String prefix = "@ABGate(" + attribute + " = \"" + methodName + "\") on " + where + ": ";
        Object returned = VariantSource.invoke(context, methodName, prefix, "a ServerVariant");
        if (!(returned instanceof ServerVariant variant)) {
            throw new ExtensionConfigurationException(prefix + methodName + "() returned "
                    + (returned == null ? "null" : "a " + returned.getClass().getName()) + "; return a ServerVariant");
        }
        return variant;
    }
}
