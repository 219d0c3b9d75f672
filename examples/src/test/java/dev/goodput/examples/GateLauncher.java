package dev.goodput.examples;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs one gate class through JUnit's launcher with configuration parameters, as JUnit's ConsoleLauncher does in
 * a shard's pod ({@code examples/kubernetes}), and exits 0 when every test passed, 1 otherwise:
 * {@code GateLauncher <class> key=value...}. Used by {@code ShardedGateAcrossProcessesTest} to run shards in JVMs
 * of their own.
 */
public final class GateLauncher {

    private GateLauncher() {}

    public static void main(String[] arguments) throws ClassNotFoundException {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 1; i < arguments.length; i++) {
            int equals = arguments[i].indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("argument " + i + " = '" + arguments[i] + "' is not key=value");
            }
            parameters.put(arguments[i].substring(0, equals), arguments[i].substring(equals + 1));
        }
        TestExecutionSummary summary = run(Class.forName(arguments[0]), parameters);
        summary.printTo(new PrintWriter(System.out, true));
        summary.printFailuresTo(new PrintWriter(System.out, true), 20);
        System.exit(summary.getTotalFailureCount() == 0 && summary.getTestsSucceededCount() > 0 ? 0 : 1);
    }

    /** Runs the class's tests with the given configuration parameters and returns JUnit's summary. */
    static TestExecutionSummary run(Class<?> gateClass, Map<String, String> parameters) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create()
                .execute(
                        LauncherDiscoveryRequestBuilder.request()
                                .selectors(selectClass(gateClass))
                                .configurationParameters(parameters)
                                .build(),
                        listener);
        return listener.getSummary();
    }
}
