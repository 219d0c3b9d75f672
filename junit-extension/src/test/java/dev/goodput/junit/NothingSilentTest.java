package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.goodput.core.ServerEndpoint;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * docs/reliability.md promises that nothing is silently ignored. One test per way a setting could have been: a
 * Goodput annotation on a class without {@code @GoodputTest}, a misspelt {@code goodput.*} key (as a system
 * property or in {@code junit-platform.properties}), and a server setting without the server URL it belongs to.
 * (Annotations that would have no effect are rows of {@link BadInputTableTest}.)
 */
@Isolated("sets a misspelt goodput.* system property, which fails every gate that runs beside it")
class NothingSilentTest {

    @TempDir
    Path reports;

    private Events execute(DiscoverySelector selector, Map<String, String> parameters) {
        Map<String, String> configuration = new HashMap<>(Map.of(
                "goodput.report.dir", reports.toString(),
                "goodput.progress", "off",
                "goodput.client.untrustworthy", "warn"));
        configuration.putAll(parameters);
        var request = EngineTestKit.engine("junit-jupiter");
        configuration.forEach(request::configurationParameter);
        return request.selectors(selector).execute().testEvents();
    }

    private static String failure(Events events) {
        events.assertStatistics(stats -> stats.started(1).failed(1));
        return throwable(events.failed().list().get(0)).getMessage();
    }

    private static Throwable throwable(Event event) {
        return event.getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Every Goodput annotation switches the extension on by itself

    /** No {@code @GoodputTest}: before, this impossible objective passed in a few milliseconds without a load. */
    static class ImpossibleSloWithoutClassAnnotation {
        @org.junit.jupiter.api.Test
        @SimulatedServer(preset = "fixed")
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 4, requests = 8)
        @Slo(metric = TTFT, percentile = 50, atMost = 1) // the fixed model's TTFT is 50 ms
        void gate() {}
    }

    @Test
    void should_fail_an_impossible_objective_on_a_class_without_goodput_test() {
        Events events = execute(selectClass(ImpossibleSloWithoutClassAnnotation.class), Map.of());

        assertThat(failure(events)).contains("1 of 1 objectives not met").contains("VIOLATED");
        assertThat(reports.resolve("ImpossibleSloWithoutClassAnnotation/gate/result.json"))
                .isRegularFile();
        // @LoadProfile also brings the tag and the resource lock that @GoodputTest gives.
        assertThat(events.list().get(0).getTestDescriptor().getTags())
                .extracting(tag -> tag.getName())
                .contains(GoodputTest.TAG);
    }

    /**
     * Each method carries one Goodput annotation and nothing else from Goodput, and a parameter only the extension
     * resolves. Without the extension, JUnit would fail every one with "No ParameterResolver registered"; with it,
     * each passes or fails with Goodput's own word.
     */
    static class OneAnnotationEach {
        @org.junit.jupiter.api.Test
        @SimulatedServer(preset = "fixed")
        void simulatedServer(GoodputRunner runner) {}

        @org.junit.jupiter.api.Test
        @ServerUrl(value = "http://127.0.0.1:9", model = "m")
        void serverUrl(GoodputRunner runner) {}

        @org.junit.jupiter.api.Test
        @LoadProfile(concurrency = 1, requests = 2)
        void loadProfile(GoodputRunner runner) {}

        @org.junit.jupiter.api.Test
        @LoadSweep(
                rates = {2},
                runSeconds = 1,
                drainSeconds = 1)
        void loadSweep(GoodputRunner runner) {}

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8)
        void workload(GoodputRunner runner) {}

        @org.junit.jupiter.api.Test
        @Slo(metric = TTFT, percentile = 50, atMost = 1)
        void slo(GoodputRunner runner) {}

        @org.junit.jupiter.api.Test
        @Slo(metric = TTFT, percentile = 50, atMost = 1)
        @Slo(metric = TTFT, percentile = 90, atMost = 1)
        void slos(GoodputRunner runner) {}

        @org.junit.jupiter.api.Test
        @MaxGoodputRate(atLeast = 1)
        void maxGoodputRate(GoodputRunner runner) {}
    }

    static class ServerUnderTestOnly {
        @ServerUnderTest
        static final ServerEndpoint SERVER = ServerEndpoint.of("http://127.0.0.1:9", "m");

        @org.junit.jupiter.api.Test
        void serverUnderTest(GoodputRunner runner) {}
    }

    @ParameterizedTest(name = "@{0} alone")
    @CsvSource(
            delimiter = '|',
            value = {
                "simulatedServer | ",
                "serverUrl | ",
                "loadProfile | ",
                "loadSweep | ",
                "workload | @Workload on OneAnnotationEach.workload() has no load to apply to",
                "slo | @Slo on OneAnnotationEach.slo() has no load to judge",
                "slos | @Slo on OneAnnotationEach.slos() has no load to judge",
                "maxGoodputRate | @MaxGoodputRate on OneAnnotationEach.maxGoodputRate() has no sweep to judge",
            })
    void should_switch_the_extension_on_with_any_one_annotation(String method, String failure) {
        Events events = execute(
                selectMethod(OneAnnotationEach.class, method, GoodputRunner.class.getName()),
                Map.of("goodput.load.scale", "1"));

        events.assertStatistics(stats -> stats.started(1));
        if (failure == null) {
            assertThat(GoodputExtensionTest.failureMessages(events)).isEmpty();
        } else {
            assertThat(failure(events)).startsWith(failure);
        }
    }

    @Test
    void should_switch_the_extension_on_with_server_under_test_on_a_field() {
        Events events = execute(selectClass(ServerUnderTestOnly.class), Map.of());

        assertThat(GoodputExtensionTest.failureMessages(events)).isEmpty();
        events.assertStatistics(stats -> stats.succeeded(1));
    }

    /** Both @GoodputTest and method annotations declare the extension; JUnit must register it once. */
    @GoodputTest
    static class DeclaredTwice {
        @ServerUnderTest
        static MockServer server;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(concurrency = 2, requests = 6)
        @Slo(metric = TTFT, percentile = 50, atMost = 2000)
        void gate() {}
    }

    @Test
    void should_run_the_load_once_when_the_extension_is_declared_twice() throws Exception {
        try (MockServer server =
                MockServer.start(MockServerConfig.defaults().withPerformanceModel(PerformanceModel.preset("fixed")))) {
            DeclaredTwice.server = server;
            Events events = execute(selectClass(DeclaredTwice.class), Map.of());

            assertThat(GoodputExtensionTest.failureMessages(events)).isEmpty();
            // Six scheduled requests and the preflight's one: a second registration would have doubled the load.
            assertThat(server.groundTruth()).as("requests the server saw").hasSize(7);
        } finally {
            DeclaredTwice.server = null;
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Unknown goodput.* keys

    @GoodputTest
    static class NoLoad {
        @org.junit.jupiter.api.Test
        void test() {}
    }

    @Test
    void should_fail_a_misspelt_system_property_with_the_nearest_key() {
        String message = withSystemProperty(
                "goodput.server.ulr",
                "http://127.0.0.1:8000",
                () -> failure(execute(selectClass(NoLoad.class), Map.of())));

        assertThat(message)
                .startsWith("configuration parameter goodput.server.ulr (a system property) is not one of Goodput's:"
                        + " did you mean goodput.server.url?\n")
                .contains("Goodput's configuration parameters are goodput.baseline.dir, ");
    }

    @Test
    void should_accept_every_known_key_as_a_system_property() {
        String message = withSystemProperty(
                GoodputConfiguration.MOCK_SERVER_BASE_IMAGE,
                "eclipse-temurin:17-jre",
                () -> GoodputExtensionTest.failureMessages(execute(selectClass(NoLoad.class), Map.of()))
                        .toString());

        assertThat(message).isEqualTo("{}");
    }

    @Test
    void should_fail_a_misspelt_key_in_junit_platform_properties_on_the_class_path() throws IOException {
        Path classes = Files.createDirectories(reports.resolve("classes"));
        Files.writeString(classes.resolve("junit-platform.properties"), "goodput.load.scael = 0.5\n");
        Thread thread = Thread.currentThread();
        ClassLoader original = thread.getContextClassLoader();
        String message;
        try (URLClassLoader loader =
                new URLClassLoader(new URL[] {classes.toUri().toURL()}, original)) {
            thread.setContextClassLoader(loader);
            message = failure(execute(selectClass(NoLoad.class), Map.of()));
        } finally {
            thread.setContextClassLoader(original);
        }

        assertThat(message)
                .startsWith("configuration parameter goodput.load.scael ("
                        + classes.resolve("junit-platform.properties").toUri().toURL()
                        + ") is not one of Goodput's: did you mean goodput.load.scale?");
    }

    @Test
    void should_suggest_the_nearest_known_key_only_when_it_is_near() {
        Set<String> known = GoodputConfiguration.KNOWN_KEYS;
        assertThat(UnknownKeys.nearest("goodput.server.ulr", known)).isEqualTo("goodput.server.url");
        assertThat(UnknownKeys.nearest("goodput.progres", known)).isEqualTo("goodput.progress");
        assertThat(UnknownKeys.nearest("goodput.client.send-lag-limit", known))
                .isEqualTo("goodput.client.send-lag-limit-ms");
        assertThat(UnknownKeys.nearest("goodput.slo.inconclusiv", known)).isEqualTo("goodput.slo.inconclusive");
        assertThat(UnknownKeys.nearest("goodput.colour", known)).isNull();
        assertThat(UnknownKeys.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(UnknownKeys.message(Map.of("java.version", "a system property"), known))
                .as("keys outside goodput.*")
                .isEmpty();
    }

    @Test
    void should_know_the_key_another_part_of_goodput_reads() {
        assertThat(GoodputConfiguration.KNOWN_KEYS)
                .contains("goodput.preflight", "goodput.mock-server.base-image", "goodput.server.api-key-env");
    }

    private static <T> T withSystemProperty(String key, String value, Supplier<T> action) {
        String previous = System.getProperty(key);
        System.setProperty(key, value);
        try {
            return action.get();
        } finally {
            if (previous == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, previous);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Settings that need another

    @ParameterizedTest(name = "{0} without goodput.server.url")
    @CsvSource(
            delimiter = '|',
            value = {
                "goodput.server.model | my-model | configuration parameter goodput.server.model = 'my-model' needs"
                        + " goodput.server.url: it names the model to request from that server, so without a URL it"
                        + " would be ignored; set goodput.server.url too, or remove goodput.server.model",
                "goodput.server.api-key-env | VLLM_API_KEY | configuration parameter goodput.server.api-key-env ="
                        + " 'VLLM_API_KEY' needs goodput.server.url: it names the environment variable with that"
                        + " server's API key, so without a URL it would be ignored; set goodput.server.url too, or"
                        + " remove goodput.server.api-key-env",
                "goodput.server.api-base-path | /openai/v1 | configuration parameter goodput.server.api-base-path ="
                        + " '/openai/v1' needs goodput.server.url: it names the path of that server's API, so without"
                        + " a URL it would be ignored; set goodput.server.url too, or remove"
                        + " goodput.server.api-base-path",
            })
    void should_fail_a_server_setting_without_the_server_url(String key, String value, String message) {
        Events events = execute(selectClass(NoLoad.class), Map.of(key, value));

        assertThat(failure(events)).isEqualTo(message);
        assertThat(throwable(events.failed().list().get(0))).isInstanceOf(ExtensionConfigurationException.class);
    }
}
