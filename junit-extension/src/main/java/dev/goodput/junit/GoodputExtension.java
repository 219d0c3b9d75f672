package dev.goodput.junit;

import dev.goodput.core.Goodput;
import dev.goodput.core.PreflightException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.sweep.Sweep;
import dev.goodput.core.sweep.SweepResult;
import dev.goodput.core.sweep.SweepSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.AssertionFailedError;

/**
 * Turns a test method into a performance gate. Before the method body it validates the annotations (a load too
 * small for a percentile objective included), resolves the server under test, makes the preflight (a failure
 * fails the test with what was tried and what came back; {@code goodput.preflight=off} skips it) and runs the
 * load; the body receives the {@link RunResult} (or a {@link GoodputRunner} for runs of its own); after the body
 * it writes the reports and fails the test with every objective that was not met. With {@link LoadSweep} it runs
 * a sweep instead, injects the {@link SweepResult} and judges {@link MaxGoodputRate}. JUnit invokes the method
 * itself, exactly once.
 */
final class GoodputExtension implements BeforeTestExecutionCallback, AfterTestExecutionCallback, ParameterResolver {

    static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(GoodputExtension.class);
    private static final String RESULT = "result";
    /** A shard's own result, for the test body; a shard is not judged. */
    static final String SHARD_RESULT = "shard-result";

    private static final String RUNNER = "runner";
    private static final String SWEEP = "sweep";

    @Override
    public void beforeTestExecution(ExtensionContext context) {
        GateContext gate = GateContext.of(context);
        try {
            runLoad(context, gate);
        } catch (PreflightException e) {
            throw new AssertionFailedError(
                    gate.name() + ": " + e.getMessage() + "\nserver: "
                            + gate.server().source() + "\nno load was sent (" + GoodputConfiguration.PREFLIGHT
                            + "=off skips this check)",
                    e);
        }
    }

    private static void runLoad(ExtensionContext context, GateContext gate) {
        ShardSettings shards = gate.shards();
        if (shards.mode() != ShardSettings.Mode.WHOLE) {
            ShardGate.run(gate, shards)
                    .ifPresent(outcome -> context.getStore(NAMESPACE).put(RESULT, outcome));
            return;
        }
        if (VariantGate.declared(gate)) {
            VariantGate.run(gate);
            return;
        }
        if (gate.abGate().isPresent()) {
            ABGateRun.run(gate, gate.abGate().get());
            return;
        }
        Optional<LoadSweep> sweep = gate.definition().sweep();
        if (sweep.isPresent()) {
            runSweep(gate, sweep.get());
            return;
        }
        Optional<RunSpec> spec = gate.baseRun();
        if (spec.isPresent()) {
            GateTrials.Outcome outcome = GateTrials.run(gate, spec.get());
            context.getStore(NAMESPACE).put(RESULT, outcome);
        }
    }

    private static void runSweep(GateContext gate, LoadSweep sweep) {
        SweepSpec spec = SweepGate.spec(sweep, gate.baseRun().orElseThrow(), gate.sweepProgressLine(), gate.name());
        SweepResult result = Sweep.run(spec);
        Optional<String> failure = SweepGate.failure(
                gate.name(),
                result,
                GateDefinition.nearest(
                                gate.context().getRequiredTestClass(),
                                gate.context().getRequiredTestMethod(),
                                MaxGoodputRate.class)
                        .orElse(null),
                gate.server().source(),
                gate.reportDirectory(0));
        gate.context().getStore(NAMESPACE).put(SWEEP, new SweepRun(result, failure.orElse(null)));
        GateReports.writeSweep(gate, result, failure.isEmpty());
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        VariantGate.judge(context);
        ABGateRun.judge(context);
        SweepRun sweep = context.getStore(NAMESPACE).get(SWEEP, SweepRun.class);
        if (sweep != null && sweep.failure() != null) {
            throw new AssertionFailedError(sweep.failure());
        }
        GateTrials.Outcome outcome = context.getStore(NAMESPACE).get(RESULT, GateTrials.Outcome.class);
        if (outcome != null) {
            GateVerdict.judge(GateContext.of(context), outcome);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == RunResult.class
                || type == GoodputRunner.class
                || type == SweepResult.class
                || type == VariantResults.class
                || type == dev.goodput.core.ab.ABResult.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (parameter.getParameter().getType() == VariantResults.class) {
            return VariantGate.results(context);
        }
        if (parameter.getParameter().getType() == dev.goodput.core.ab.ABResult.class) {
            return ABGateRun.result(context);
        }
        if (parameter.getParameter().getType() == GoodputRunner.class) {
            return context.getStore(NAMESPACE)
                    .getOrComputeIfAbsent(
                            RUNNER, key -> new ExtensionRunner(GateContext.of(context)), GoodputRunner.class);
        }
        if (parameter.getParameter().getType() == SweepResult.class) {
            SweepRun sweep = context.getStore(NAMESPACE).get(SWEEP, SweepRun.class);
            if (sweep == null) {
                throw new ParameterResolutionException("a SweepResult parameter needs a sweep: add @LoadSweep to "
                        + context.getRequiredTestMethod().getName() + "() or its class");
            }
            return sweep.result();
        }
        GateTrials.Outcome outcome = context.getStore(NAMESPACE).get(RESULT, GateTrials.Outcome.class);
        RunResult shardResult = context.getStore(NAMESPACE).get(SHARD_RESULT, RunResult.class);
        if (outcome == null && shardResult != null) {
            return shardResult;
        }
        if (outcome == null) {
            throw new ParameterResolutionException("a RunResult parameter needs a load to run: add @LoadProfile to "
                    + context.getRequiredTestMethod().getName() + "() or its class, or take a GoodputRunner instead");
        }
        // With several trials, the last counted one; the gate's verdict covers them all.
        return outcome.last();
    }

    /** The annotated sweep's result and its gate's failure message (or {@code null}), kept for the test. */
    record SweepRun(SweepResult result, String failure) {}

    /** Runs of a test method's own, against the resolved server, with the configured scale and reports. */
    private static final class ExtensionRunner implements GoodputRunner {
        private final GateContext gate;
        private int runs;

        ExtensionRunner(GateContext gate) {
            this.gate = gate;
        }

        @Override
        public ServerEndpoint server() {
            return gate.server().endpoint();
        }

        @Override
        public RunResult run(WorkloadSpec workload, Load load, SloSpec... objectives) {
            return run(builder -> builder.workload(workload).load(load).objectives(objectives));
        }

        @Override
        public synchronized RunResult run(UnaryOperator<Goodput.RunBuilder> configure) {
            RunSpec configured = configure.apply(gate.newRun()).build();
            RunSpec scaled = configured.withLoad(
                    configured.load().scaled(gate.configuration().loadScale()));
            RunResult result = Goodput.run(scaled);
            GateReports.write(gate, result, ++runs);
            return result;
        }
    }
}
