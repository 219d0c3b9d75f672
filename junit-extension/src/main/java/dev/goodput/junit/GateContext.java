package dev.goodput.junit;

import dev.goodput.core.Goodput;
import dev.goodput.core.ProgressListener;
import dev.goodput.core.RunSpec;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ScrapeSettings;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Everything the extension knows about one test, built once before the test body and kept in the test's store:
 * its name, its configuration (parsed once), its annotations as core values, where its reports go, the server it
 * runs against and the base spec of its runs. Every later step (the run, the sweep, the runner parameter, the
 * reports, the verdict) reads this value and computes none of it again.
 *
 * <p>The order in which it is built is the order of what may fail: configuration parameters, then annotations
 * (both before any server is started), then the server, then the base spec.
 */
final class GateContext {

    private static final String KEY = "gate";
    private static final Pattern INVOCATION = Pattern.compile("\\[test-template-invocation:#(\\d+)]$");

    private final ExtensionContext context;
    private final String name;
    private final GoodputConfiguration configuration;
    private final ShardSettings shards;
    private final GateDefinition definition;
    private final Path reportDirectory;
    private final ServerResolver.ResolvedServer server;
    private final RunSpec baseRun;
    private final ServerVariants variants;
    private final ABGate abGate;
    private final ScrapeSettings serverMetrics;
    private final Deployment deployment;
    private final boolean stopWhenServerGone;

    private GateContext(ExtensionContext context) {
        this.context = context;
        Method method = context.getRequiredTestMethod();
        this.name = context.getRequiredTestClass().getSimpleName() + "." + method.getName() + "()";
        this.configuration = GoodputConfiguration.from(context);
        this.shards = ShardSettings.from(context);
        this.definition = GateDefinition.of(context.getRequiredTestClass(), method, name, configuration);
        this.serverMetrics =
                ServerMetricsAnnotations.scrape(context.getRequiredTestClass(), method, name, configuration);
        this.deployment = ServerMetricsAnnotations.deployment(context.getRequiredTestClass(), method, name);
        this.stopWhenServerGone = GateDefinition.nearest(context.getRequiredTestClass(), method, LoadProfile.class)
                .map(LoadProfile::stopWhenServerGone)
                .orElse(false);
        Matcher invocation = INVOCATION.matcher(context.getUniqueId());
        this.reportDirectory = configuration
                .reportDirectory()
                .resolve(context.getRequiredTestClass().getSimpleName())
                .resolve(method.getName() + (invocation.find() ? "-" + invocation.group(1) : ""));
        boolean takesRunner = Arrays.asList(method.getParameterTypes()).contains(GoodputRunner.class);
        // Server variants bring their own servers, one per run (VariantGate); the gate's own is not needed.
        this.variants = GateDefinition.nearest(context.getRequiredTestClass(), method, ServerVariants.class)
                .orElse(null);
        // An A/B gate brings its two servers too (ABGateRun).
        this.abGate = GateDefinition.nearest(context.getRequiredTestClass(), method, ABGate.class)
                .orElse(null);
        if (variants != null && abGate != null) {
            throw new org.junit.jupiter.api.extension.ExtensionConfigurationException(
                    name + " has both @ServerVariants and @ABGate; an A/B gate judges two servers against each other,"
                            + " server variants run several whole: choose one");
        }
        boolean ownLoad = definition.load().isPresent() && variants == null && abGate == null;
        this.server = ownLoad || takesRunner ? ServerResolver.resolve(context, configuration) : null;
        this.baseRun = definition
                .load()
                .filter(load -> ownLoad)
                .map(load -> new AnnotationSettings("the gate", name)
                        .apply(() -> newRun().workload(definition.workload())
                                .load(load)
                                .objectives(definition.objectives())
                                .build()))
                .orElse(null);
    }

    /** Returns the test's context, building it on first use. */
    static GateContext of(ExtensionContext context) {
        return context.getStore(GoodputExtension.NAMESPACE)
                .getOrComputeIfAbsent(KEY, key -> new GateContext(context), GateContext.class);
    }

    /** Returns the JUnit context of the test. */
    ExtensionContext context() {
        return context;
    }

    /** Returns the test's name as messages show it: {@code "ChatGate.chat()"}. */
    String name() {
        return name;
    }

    /** Returns the report title of a run: 0 is the annotated gate, 1.. a runner's runs. */
    String title(int run) {
        String plain = name.substring(0, name.length() - 2);
        return run == 0 ? plain : plain + " run " + run;
    }

    GoodputConfiguration configuration() {
        return configuration;
    }

    /** Returns whether this process runs the gate whole, as a shard, or as the merge of its shards. */
    ShardSettings shards() {
        return shards;
    }

    GateDefinition definition() {
        return definition;
    }

    /**
     * Returns the directory of a run's reports; {@code run} 0 is the annotated gate, 1.. a runner's runs. Each
     * invocation of a parameterized or repeated test gets its own directory ({@code method-2} for the second).
     */
    Path reportDirectory(int run) {
        return run == 0
                ? reportDirectory
                : reportDirectory.resolveSibling(reportDirectory.getFileName() + "-run" + run);
    }

    /** Returns the server the test runs against; present when it has a load of its own (no variants) or takes a runner. */
    ServerResolver.ResolvedServer server() {
        return server;
    }

    /** Returns the spec of the annotated run (for a sweep, one run at the grid's first rate), if there is a load. */
    Optional<RunSpec> baseRun() {
        return Optional.ofNullable(baseRun);
    }

    /**
     * Starts a run against the test's server with the configured client settings, preflight, sample-size policy
     * (a warning where inconclusive verdicts only warn) and progress line.
     */
    Goodput.RunBuilder newRun() {
        return newRun(server.endpoint());
    }

    /** Starts a run as {@link #newRun()} does, against another server: a {@link ServerVariant}'s. */
    Goodput.RunBuilder newRun(dev.goodput.core.ServerEndpoint endpoint) {
        return configuration
                .runSettings()
                .apply(Goodput.newRun(endpoint))
                .stopWhenServerGone(stopWhenServerGone)
                .serverMetrics(serverMetrics)
                .deployment(deployment)
                .progress(progressLine());
    }

    /** Returns the method's {@link ABGate}, when it judges a candidate server against a baseline server. */
    Optional<ABGate> abGate() {
        return Optional.ofNullable(abGate);
    }

    /** Returns the method's {@link ServerVariants}, when it runs its gate against several servers. */
    Optional<ServerVariants> variants() {
        return Optional.ofNullable(variants);
    }

    /** Returns the sweep's progress line, or {@code null} when progress is off. */
    dev.goodput.core.sweep.SweepListener sweepProgressLine() {
        return SweepProgressLine.forTest(title(0), configuration);
    }

    private ProgressListener progressLine() {
        return ProgressLine.forTest(title(0), configuration);
    }
}
