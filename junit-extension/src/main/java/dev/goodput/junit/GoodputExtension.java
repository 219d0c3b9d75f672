package dev.goodput.junit;

import dev.goodput.core.Goodput;
import dev.goodput.core.Load;
import dev.goodput.core.Objective;
import dev.goodput.core.RunResult;
import dev.goodput.core.RunSpec;
import dev.goodput.core.WorkloadSpec;
import dev.goodput.core.sweep.Sweep;
import dev.goodput.core.sweep.SweepResult;
import dev.goodput.core.sweep.SweepSpec;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.AssertionFailedError;

/**
 * Turns a test method into a performance gate. Before the method body it validates the annotations, resolves
 * the server under test and runs the load; the body receives the {@link RunResult} (or a {@link GoodputRunner}
 * for runs of its own); after the body it writes the reports and fails the test with every objective that was
 * not met. With {@link LoadSweep} it runs a sweep instead, injects the {@link SweepResult} and judges
 * {@link MaxGoodputRate}. JUnit invokes the method itself, exactly once.
 */
final class GoodputExtension implements BeforeTestExecutionCallback, AfterTestExecutionCallback, ParameterResolver {

    static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(GoodputExtension.class);
    private static final String RESULT = "result";
    private static final String RUNNER = "runner";
    private static final String SWEEP = "sweep";

    @Override
    public void beforeTestExecution(ExtensionContext context) {
        GoodputConfiguration configuration = GoodputConfiguration.from(context);
        Method method = context.getRequiredTestMethod();
        GateDefinition gate = GateDefinition.of(context.getRequiredTestClass(), method, configuration.loadScale());
        Optional<LoadSweep> sweep = SweepGate.annotation(context.getRequiredTestClass(), method);
        if (sweep.isPresent()) {
            runSweep(context, configuration, gate, sweep.get());
            return;
        }
        if (gate.load().isEmpty()) {
            if (!gate.objectives().isEmpty()) {
                throw new ExtensionConfigurationException(
                        "@Slo on " + context.getRequiredTestClass().getSimpleName() + "." + method.getName()
                                + "() has no load to judge: add @LoadProfile to the method or the class");
            }
            return;
        }
        ServerResolver.ResolvedServer server = ServerResolver.resolve(context, configuration);
        RunSpec spec = GateDefinition.validate(
                () -> Goodput.newRun(server.endpoint())
                        .workload(gate.workload())
                        .load(gate.load().orElseThrow())
                        .objectives(gate.objectives())
                        .sendLagLimit(configuration.sendLagLimit())
                        .progress(ProgressLine.forTest(context, configuration))
                        .build(),
                "the gate",
                context.getRequiredTestClass().getSimpleName() + "." + method.getName() + "()");
        RunResult result = Goodput.run(spec);
        context.getStore(NAMESPACE).put(RESULT, new GateRun(result, server.source()));
        GateReports.write(context, configuration, result, 0);
    }

    private static void runSweep(
            ExtensionContext context, GoodputConfiguration configuration, GateDefinition gate, LoadSweep sweep) {
        String where = context.getRequiredTestClass().getSimpleName() + "."
                + context.getRequiredTestMethod().getName() + "()";
        ServerResolver.ResolvedServer server = ServerResolver.resolve(context, configuration);
        SweepSpec spec = SweepGate.spec(
                sweep,
                gate,
                server.endpoint(),
                SweepProgressLine.forTest(context, configuration),
                configuration.loadScale(),
                where);
        SweepResult result = Sweep.run(spec);
        Optional<String> failure = SweepGate.failure(
                where,
                result,
                GateDefinition.nearest(
                                context.getRequiredTestClass(), context.getRequiredTestMethod(), MaxGoodputRate.class)
                        .orElse(null),
                server.source(),
                GateReports.directory(context, configuration, 0));
        context.getStore(NAMESPACE).put(SWEEP, new SweepRun(result, failure.orElse(null)));
        GateReports.writeSweep(context, configuration, result, failure.isEmpty());
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        SweepRun sweep = context.getStore(NAMESPACE).get(SWEEP, SweepRun.class);
        if (sweep != null && sweep.failure() != null) {
            throw new AssertionFailedError(sweep.failure());
        }
        GateRun run = context.getStore(NAMESPACE).get(RESULT, GateRun.class);
        if (run == null) {
            return;
        }
        GoodputConfiguration configuration = GoodputConfiguration.from(context);
        GateVerdict.judge(context, run.result(), run.serverSource(), configuration);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == RunResult.class || type == GoodputRunner.class || type == SweepResult.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        if (parameter.getParameter().getType() == GoodputRunner.class) {
            return context.getStore(NAMESPACE)
                    .getOrComputeIfAbsent(RUNNER, key -> new ExtensionRunner(context), GoodputRunner.class);
        }
        if (parameter.getParameter().getType() == SweepResult.class) {
            SweepRun sweep = context.getStore(NAMESPACE).get(SWEEP, SweepRun.class);
            if (sweep == null) {
                throw new ParameterResolutionException("a SweepResult parameter needs a sweep: add @LoadSweep to "
                        + context.getRequiredTestMethod().getName() + "() or its class");
            }
            return sweep.result();
        }
        GateRun run = context.getStore(NAMESPACE).get(RESULT, GateRun.class);
        if (run == null) {
            throw new ParameterResolutionException("a RunResult parameter needs a load to run: add @LoadProfile to "
                    + context.getRequiredTestMethod().getName() + "() or its class, or take a GoodputRunner instead");
        }
        return run.result();
    }

    /** The annotated sweep's result and its gate's failure message (or {@code null}), kept for the test. */
    record SweepRun(SweepResult result, String failure) {}

    /** The annotated gate's run, kept for the parameter and the verdict. */
    record GateRun(RunResult result, String serverSource) {}

    /** Runs of a test method's own, against the resolved server, with the configured scale and reports. */
    private static final class ExtensionRunner implements GoodputRunner {
        private final ExtensionContext context;
        private final GoodputConfiguration configuration;
        private final ServerResolver.ResolvedServer server;
        private int runs;

        ExtensionRunner(ExtensionContext context) {
            this.context = context;
            this.configuration = GoodputConfiguration.from(context);
            this.server = ServerResolver.resolve(context, configuration);
        }

        @Override
        public dev.goodput.core.ServerEndpoint server() {
            return server.endpoint();
        }

        @Override
        public RunResult run(WorkloadSpec workload, Load load, Objective... objectives) {
            return run(builder -> builder.workload(workload).load(load).objectives(objectives));
        }

        @Override
        public synchronized RunResult run(UnaryOperator<RunSpec.Builder> configure) {
            RunSpec configured = configure
                    .apply(Goodput.newRun(server.endpoint()))
                    .progress(ProgressLine.forTest(context, configuration))
                    .build();
            RunSpec scaled = new RunSpec(
                    configured.server(),
                    configured.workload(),
                    configured.load().scaled(configuration.loadScale()),
                    configured.objectives(),
                    configured.percentiles(),
                    configured.confidence(),
                    configured.outputTokenCounter(),
                    configuration.sendLagLimit(),
                    configured.progressListener());
            RunResult result = Goodput.run(scaled);
            GateReports.write(context, configuration, result, ++runs);
            return result;
        }
    }
}
