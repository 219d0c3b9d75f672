package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.report.VariantComparison;
import dev.goodput.core.report.VariantOutcome;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.sweep.SweepResult;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Every variant's result of a {@link ServerVariants} test, for a test method's own assertions: declare a parameter
 * of this type.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class VariantResults {

    private final VariantComparison comparison;

    VariantResults(VariantComparison comparison) {
        this.comparison = comparison;
    }

    /** Returns the variants' names in the order declared. */
    public List<String> names() {
        return comparison.variants().stream().map(VariantOutcome::name).toList();
    }

    /**
     * Returns the variant's run; for a sweep, its run at the max goodput rate (see {@link
     * VariantOutcome#ofSweep}).
     *
     * @throws IllegalArgumentException when no variant has this name
     */
    public RunResult get(String name) {
        return outcome(name).result();
    }

    /**
     * Returns the variant's sweep.
     *
     * @throws IllegalArgumentException when no variant has this name, or the test is not a sweep
     */
    public SweepResult sweep(String name) {
        return outcome(name)
                .sweep()
                .orElseThrow(() -> new IllegalArgumentException(
                        "variant '" + name + "' ran one load, not a sweep; use get(\"" + name + "\")"));
    }

    /** Returns whether the variant met the gate. */
    public boolean passed(String name) {
        return outcome(name).passed();
    }

    /** Returns the name of the best variant (the highest goodput among those that met the gate), if any met it. */
    public Optional<String> best() {
        return comparison.best().map(VariantOutcome::name);
    }

    /** Returns the comparison the reports were written from. */
    public VariantComparison comparison() {
        return comparison;
    }

    /** Returns the variant's outcome. */
    public VariantOutcome outcome(String name) {
        return comparison.variants().stream()
                .filter(variant -> variant.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "no server variant is named '" + name + "'; the variants are " + names()));
    }

    @Override
    public String toString() {
        return comparison.headline();
    }
}
