package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.ab.ABResult;
import dev.goodput.core.ab.ABRun;
import dev.goodput.core.compare.ChangeVerdict;
import dev.goodput.mock.PerformanceModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** {@link ABGate}, run through JUnit's own engine against two simulated servers on loopback. */
class ABGateTest {

    @TempDir
    Path reports;

    private Events tests(Class<?> testCase) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn")
                .selectors(selectClass(testCase))
                .execute()
                .testEvents();
    }

    /** Every token 10 ms apart, the first after 50 ms, whatever the load: a server with no noise of its own. */
    static ServerVariant main() {
        return ServerVariant.simulated("main", PerformanceModel.fixed(Duration.ofMillis(50), Duration.ofMillis(10)));
    }

    /** The same first token, every further token twice as slow. */
    static ServerVariant slowerDecode() {
        return ServerVariant.simulated(
                "slower decode", PerformanceModel.fixed(Duration.ofMillis(50), Duration.ofMillis(20)));
    }

    @GoodputTest
    static class SlowerDecode {
        static ABResult captured;

        @org.junit.jupiter.api.Test
        @ABGate(baseline = "main", candidate = "slowerDecode")
        @Workload(inputTokens = 8, outputTokens = 6)
        @LoadProfile(concurrency = 2, requests = 6, warmupRequests = 1)
        void gate(ABResult result) {
            captured = result;
        }

        static ServerVariant main() {
            return ABGateTest.main();
        }

        static ServerVariant slowerDecode() {
            return ABGateTest.slowerDecode();
        }
    }

    @Test
    void should_fail_on_a_regression_and_write_both_arms_side_by_side_with_the_block_order() throws Exception {
        Map<String, String> failures = GoodputExtensionTest.failureMessages(tests(SlowerDecode.class));

        ABResult result = SlowerDecode.captured;
        assertThat(result.verdict()).isEqualTo(ChangeVerdict.REGRESSED);
        assertThat(result.change("TPOT p50").orElseThrow().verdict()).isEqualTo(ChangeVerdict.REGRESSED);
        assertThat(result.change("TPOT p50").orElseThrow().change().change()).isBetween(0.5, 1.5);
        assertThat(result.pairs()).isGreaterThanOrEqualTo(ABRun.DEFAULT_FIRST_LOOK_PAIRS);
        assertThat(result.blockOrder().replace(" ", "")).matches("((ABBA)|(BAAB))+");
        assertThat(failures).containsOnlyKeys("gate");
        assertThat(failures.get("gate"))
                .startsWith("SlowerDecode.gate(): REGRESSED against the baseline: REGRESSED: ")
                .contains("TPOT p50 +");
        Path directory = reports.resolve("SlowerDecode").resolve("gate");
        assertThat(Files.readString(directory.resolve("gate.md")))
                .contains("- block order: " + result.blockOrder())
                .contains("| TPOT p50 |")
                .contains("- noise floor: ");
        assertThat(Files.readString(directory.resolve("gate.json"))).contains("\"ab_verdict\" : \"REGRESSED\"");
        assertThat(Files.readString(directory.resolve("gate.html"))).contains("A/B REGRESSED");
        assertThat(directory.resolve("baseline").resolve("report.html")).exists();
        assertThat(directory.resolve("candidate").resolve("report.html")).exists();
    }

    @GoodputTest
    static class SameServerTwice {
        @org.junit.jupiter.api.Test
        @ABGate(baseline = "main", candidate = "main", minimumChange = 0.2, maxPairs = 8)
        @Workload(inputTokens = 8, outputTokens = 6)
        @LoadProfile(concurrency = 2, requests = 6, warmupRequests = 1)
        @Slo(metric = TTFT, percentile = 50, atMost = 1000)
        void gate() {}

        static ServerVariant main() {
            return ABGateTest.main();
        }
    }

    @Test
    void should_pass_when_both_arms_are_the_same_configuration_and_the_candidate_meets_its_objectives() {
        Events events = tests(SameServerTwice.class);

        assertThat(GoodputExtensionTest.failureMessages(events)).isEmpty();
        events.assertStatistics(stats -> stats.succeeded(1));
    }

    @GoodputTest
    static class NoSuchMethod {
        @org.junit.jupiter.api.Test
        @ABGate(baseline = "main", candidate = "branch")
        @Workload(inputTokens = 8, outputTokens = 6)
        @LoadProfile(concurrency = 2, requests = 6)
        void gate() {}

        static ServerVariant main() {
            return ABGateTest.main();
        }
    }

    @Test
    void should_refuse_a_method_that_does_not_exist_naming_the_attribute_before_any_server_starts() {
        Map<String, String> failures = GoodputExtensionTest.failureMessages(tests(NoSuchMethod.class));

        assertThat(failures.get("gate"))
                .isEqualTo("@ABGate(candidate = \"branch\") on NoSuchMethod.gate(): NoSuchMethod has no method"
                        + " branch() without parameters; name a method that returns a ServerVariant");
    }
}
