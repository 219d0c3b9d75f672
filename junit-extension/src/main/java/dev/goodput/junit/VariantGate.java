package dev.goodput.junit;

import dev.goodput.core.Goodput;
import dev.goodput.core.PreflightException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.report.ReportIndex;
import dev.goodput.core.report.Reports;
import dev.goodput.core.report.VariantComparison;
import dev.goodput.core.report.VariantOutcome;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.sweep.Sweep;
import dev.goodput.core.sweep.SweepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.MediaType;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.commons.JUnitException;
import org.opentest4j.AssertionFailedError;

/**
 * A {@link ServerVariants} test: runs the gate once per variant, one after the other, each against its own server
 * started just before and stopped just after; writes each variant's reports in a directory of its own and the
 * comparison of all of them; and after the test body fails the test as {@link ServerVariants#require()} says, with
 * the table and every failing variant's own message.
 */
final class VariantGate {

    private static final String KEY = "variants";

    private VariantGate() {}

    /** The comparison, kept for the test body and the verdict, and the failure message or {@code null}. */
    record VariantRun(VariantResults results, String failure) {}

    /** Returns whether the test method declares server variants. */
    static boolean declared(GateContext gate) {
        return gate.variants().isPresent();
    }

    /** Runs every variant, writes the reports and keeps the outcome for the body and the verdict. */
    static void run(GateContext gate) {
        ServerVariants annotation = gate.variants().orElseThrow();
        String where = gate.name();
        if (gate.definition().load().isEmpty()) {
            throw new ExtensionConfigurationException("@ServerVariants on " + where
                    + " has no load to run against each variant: add @LoadProfile or @LoadSweep");
        }
        for (Class<?> type : gate.context().getRequiredTestMethod().getParameterTypes()) {
            if (type == RunResult.class || type == SweepResult.class) {
                throw new ExtensionConfigurationException(where + " takes a " + type.getSimpleName()
                        + " but runs against several @ServerVariants; take a VariantResults instead");
            }
        }
        List<ServerVariant> variants = VariantSource.read(gate.context(), annotation, where);
        Path directory = gate.reportDirectory(0);
        List<VariantOutcome> outcomes = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (ServerVariant variant : variants) {
            outcomes.add(runOne(gate, variant, directory, failures));
        }
        VariantComparison comparison = VariantComparison.of(gate.title(0), outcomes);
        String failure = failure(where, annotation.require(), comparison, failures);
        comparison.writeAll(directory, failure == null ? "PASSED" : "FAILED");
        ReportIndex.update(gate.configuration().reportDirectory(), directory, null);
        System.out.print(comparison.markdown());
        System.out.println("reports: " + directory.resolve(VariantComparison.HTML_FILE));
        publish(gate.context(), directory, VariantComparison.HTML_FILE, MediaType.parse("text/html"));
        publish(gate.context(), directory, VariantComparison.MARKDOWN_FILE, MediaType.parse("text/markdown"));
        publish(gate.context(), directory, VariantComparison.CSV_FILE, MediaType.parse("text/csv"));
        gate.context().publishReportEntry(keyFigures(comparison));
        gate.context()
                .getStore(GoodputExtension.NAMESPACE)
                .put(KEY, new VariantRun(new VariantResults(comparison), failure));
    }

    private static VariantOutcome runOne(
            GateContext gate, ServerVariant variant, Path directory, List<String> failures) {
        String label = gate.name() + " [variant " + variant.name() + "]";
        Path reports = directory.resolve(VariantComparison.directoryName(variant.name()));
        String title = gate.title(0) + " [" + variant.name() + "]";
        ServerVariant.Running server;
        try {
            server = variant.start();
        } catch (RuntimeException e) {
            throw new IllegalStateException(label + ": the server did not start: " + e.getMessage(), e);
        }
        try (server) {
            RunSpec base = new AnnotationSettings("the gate", label)
                    .apply(() -> gate.newRun(server.endpoint())
                            .workload(gate.definition().workload())
                            .load(gate.definition().load().orElseThrow())
                            .objectives(gate.definition().objectives())
                            .build());
            Optional<LoadSweep> sweep = gate.definition().sweep();
            if (sweep.isPresent()) {
                SweepResult result = Sweep.run(SweepGate.spec(sweep.get(), base, gate.sweepProgressLine(), label));
                Optional<String> failure = SweepGate.failure(
                        label,
                        result,
                        GateDefinition.nearest(
                                        gate.context().getRequiredTestClass(),
                                        gate.context().getRequiredTestMethod(),
                                        MaxGoodputRate.class)
                                .orElse(null),
                        server.source(),
                        reports);
                failure.ifPresent(failures::add);
                Reports.writeSweep(result, reports, title, failure.isEmpty() ? "PASSED" : "FAILED");
                System.out.println(variant.name() + ": " + result.maxGoodput().describe());
                return VariantOutcome.ofSweep(variant.name(), result, failure.isEmpty());
            }
            RunResult result = Goodput.run(base);
            Reports.writeAll(result, reports, title);
            System.out.print("variant " + variant.name() + ": " + ConsoleReport.format(result));
            boolean passed = passed(gate.configuration(), result);
            if (!passed) {
                int failing = GateVerdict.failing(
                                result.verdicts(), gate.configuration().failOnInconclusive())
                        .size();
                failures.add(
                        GateVerdict.message(label, result, result.verdicts(), server.source(), reports, failing, 1));
            }
            return VariantOutcome.ofRun(variant.name(), result, passed);
        } catch (PreflightException e) {
            throw new AssertionFailedError(
                    label + ": " + e.getMessage() + "\nserver: " + server.source() + "\nno load was sent ("
                            + GoodputConfiguration.PREFLIGHT + "=off skips this check)",
                    e);
        }
    }

    /** Returns whether a run meets its gate under the configured policies, as {@link GateVerdict} judges it. */
    private static boolean passed(GoodputConfiguration configuration, RunResult result) {
        boolean trusted = result.clientHealth().trustworthy() || !configuration.failOnUntrustworthyClient();
        return trusted
                && GateVerdict.failing(result.verdicts(), configuration.failOnInconclusive())
                        .isEmpty();
    }

    /** Returns the failure message under the require policy, or {@code null} when the test passes. */
    static String failure(
            String where, ServerVariants.Require require, VariantComparison comparison, List<String> failures) {
        long passed =
                comparison.variants().stream().filter(VariantOutcome::passed).count();
        int total = comparison.variants().size();
        boolean fails = require == ServerVariants.Require.ALL ? passed < total : passed == 0;
        if (!fails) {
            return null;
        }
        String headline = require == ServerVariants.Require.ALL
                ? String.format(
                        Locale.ROOT,
                        "%s: %d of %d server variants failed (@ServerVariants(require = ALL)): %s",
                        where,
                        total - passed,
                        total,
                        failedNames(comparison))
                : String.format(
                        Locale.ROOT,
                        "%s: none of %d server variants met the gate (@ServerVariants(require = ANY))",
                        where,
                        total);
        return headline + "\n" + comparison.markdown() + String.join("\n", failures);
    }

    private static List<String> failedNames(VariantComparison comparison) {
        return comparison.variants().stream()
                .filter(variant -> !variant.passed())
                .map(VariantOutcome::name)
                .toList();
    }

    /** Fails the test when the variants did not meet the require policy. */
    static void judge(ExtensionContext context) {
        VariantRun run = context.getStore(GoodputExtension.NAMESPACE).get(KEY, VariantRun.class);
        if (run != null && run.failure() != null) {
            throw new AssertionFailedError(run.failure());
        }
    }

    /** Returns the results for a {@link VariantResults} parameter. */
    static VariantResults results(ExtensionContext context) {
        VariantRun run = context.getStore(GoodputExtension.NAMESPACE).get(KEY, VariantRun.class);
        if (run == null) {
            throw new ParameterResolutionException("a VariantResults parameter needs server variants: add"
                    + " @ServerVariants to " + context.getRequiredTestMethod().getName() + "()");
        }
        return run.results();
    }

    private static Map<String, String> keyFigures(VariantComparison comparison) {
        Map<String, String> figures = new LinkedHashMap<>();
        figures.put("goodput.variants", Integer.toString(comparison.variants().size()));
        // JUnit refuses a blank entry value: with no best variant, the entry is left out.
        comparison.best().ifPresent(best -> figures.put("goodput.best_variant", best.name()));
        for (VariantOutcome variant : comparison.variants()) {
            String prefix = "goodput.variant." + VariantComparison.directoryName(variant.name()) + ".";
            figures.put(prefix + "passed", Boolean.toString(variant.passed()));
            figures.put(
                    prefix + "goodput_rps",
                    String.format(Locale.ROOT, "%.3f", variant.result().goodput()));
            figures.put(
                    prefix + "ttft_p99_ms",
                    String.format(
                            Locale.ROOT,
                            "%.3f",
                            variant.result().summary(Metric.TTFT).percentiles().getOrDefault(99.0, Double.NaN) / 1e6));
        }
        return figures;
    }

    private static void publish(ExtensionContext context, Path directory, String file, MediaType type) {
        try {
            context.publishFile(file, type, target -> Files.copy(directory.resolve(file), target));
        } catch (JUnitException | UnsupportedOperationException e) {
            // No output directory configured for this launcher: the reports under the report dir remain.
        }
    }
}
