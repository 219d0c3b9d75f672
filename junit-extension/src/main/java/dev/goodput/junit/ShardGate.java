package dev.goodput.junit;

import dev.goodput.core.RunSpec;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.shard.MergedRun;
import dev.goodput.core.shard.ShardPlan;
import dev.goodput.core.shard.Shards;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * A gate run as one shard of a sharded run, or as the merge of its shards ({@link ShardSettings}). A shard sends its
 * share, writes its output and its own reports, and is not judged: its share alone says nothing about the
 * objectives. The merge sends nothing: it merges the shards' outputs into one result, which then goes the way of
 * any single run ({@link GateTrials}: reports, baseline, history) and is judged by {@link GateVerdict}.
 */
final class ShardGate {

    private ShardGate() {}

    /** Runs the gate as a shard or as the merge, and returns the outcome to judge (empty for a shard). */
    static Optional<GateTrials.Outcome> run(GateContext gate, ShardSettings settings) {
        RunSpec spec = refuseUnshardable(gate, settings);
        Path relative = gate.configuration().reportDirectory().relativize(gate.reportDirectory(0));
        Path gateRoot = settings.root().resolve(relative);
        if (settings.isShard()) {
            ShardPlan plan = ShardPlan.under(gateRoot, settings.shard(), settings.start());
            RunResult result = Shards.run(spec, plan);
            GateReports.writeAttempt(gate, result, gate.reportDirectory(0), gate.title(0) + " (" + plan.shard() + ")");
            System.out.println("SHARD: " + gate.name() + " as " + plan.shard() + " sent "
                    + result.records().size()
                    + " requests (" + result.accounting().measured() + " measured); output " + plan.output()
                    + "; not judged here: the merge (" + ShardSettings.SHARD_MERGE + "=" + settings.root()
                    + ") judges all shards together");
            gate.context().getStore(GoodputExtension.NAMESPACE).put(GoodputExtension.SHARD_RESULT, result);
            return Optional.empty();
        }
        MergedRun merged = Shards.merge(spec, gateRoot);
        merged.facts().forEach(System.out::println);
        // Judged, reported, compared with a baseline and appended to the history as any single run is.
        return Optional.of(GateTrials.run(gate, spec, merged::result));
    }

    /** Returns the gate's spec, refusing what a sharded run cannot do before anything is sent. */
    private static RunSpec refuseUnshardable(GateContext gate, ShardSettings settings) {
        String what = settings.isShard() ? "as " + settings.shard() : "as a merge";
        if (VariantGate.declared(gate) || gate.definition().sweep().isPresent()) {
            throw new ExtensionConfigurationException(gate.name() + " cannot run " + what + ": it is a "
                    + (VariantGate.declared(gate) ? "@ServerVariants gate" : "@LoadSweep")
                    + ", and sharding splits one run; shard a gate with one @LoadProfile");
        }
        Optional<Trials> trials = GateDefinition.nearest(
                gate.context().getRequiredTestClass(), gate.context().getRequiredTestMethod(), Trials.class);
        if (trials.isPresent() && (trials.get().value() != 1 || trials.get().retries() != 0)) {
            throw new ExtensionConfigurationException(gate.name() + " cannot run " + what + ": @Trials(value = "
                    + trials.get().value() + ", retries = " + trials.get().retries() + ") asks for several runs,"
                    + " and sharding splits one run");
        }
        int scaled = RegressionSettings.from(gate.context()).trials(1);
        if (scaled != 1) {
            throw new ExtensionConfigurationException(gate.name() + " cannot run " + what + " with " + scaled
                    + " trials (" + RegressionSettings.TRIALS_SCALE + "): sharding splits one run; run the shards"
                    + " again for another");
        }
        RunSpec spec = gate.baseRun()
                .orElseThrow(() -> new ExtensionConfigurationException(gate.name() + " cannot run " + what
                        + ": it has no @LoadProfile, and only an annotated load can be split into shards"));
        if (settings.isShard() && !settings.shard().isWhole() && gate.server().simulated() != null) {
            throw new ExtensionConfigurationException(gate.name() + " cannot run as " + settings.shard() + " against "
                    + gate.server().source() + ": every shard would start its own simulated server, so the merge"
                    + " would pool runs against different servers; set " + GoodputConfiguration.SERVER_URL
                    + " (and " + GoodputConfiguration.SERVER_MODEL + ") to the one server all shards load");
        }
        return spec;
    }
}
