package dev.goodput.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.goodput.core.history.HistoryEntry;
import dev.goodput.core.history.RunHistory;
import dev.goodput.core.load.Load;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * The history hook: with {@code goodput.history.file} set, every gate's run appends one entry after its reports,
 * and the index draws the trends; without it nothing is appended; a history that cannot be written only warns.
 */
@Isolated("reads every warning on System.err while its gates run, which a test beside it would add to")
class GateHistoryTest {

    @TempDir
    Path reports;

    private Events execute(Class<?> testCase, Map<String, String> parameters) {
        var request = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                .configurationParameter("goodput.client.untrustworthy", "warn");
        parameters.forEach(request::configurationParameter);
        return request.selectors(selectClass(testCase)).execute().testEvents();
    }

    @GoodputTest
    @SimulatedServer(preset = "fixed")
    static class TwoGates {
        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 3)
        @LoadProfile(concurrency = 2, requests = 6)
        void annotated() {}

        @org.junit.jupiter.api.Test
        void runner(GoodputRunner runner) {
            for (int i = 0; i < 2; i++) {
                runner.run(
                        WorkloadSpec.synthetic().inputTokens(8).outputTokens(3).build(),
                        Load.concurrency(2).requests(4));
            }
        }
    }

    @Test
    void should_append_one_entry_per_run_with_the_configured_commit_and_branch() throws IOException {
        Path history = reports.resolve("history").resolve("goodput.jsonl");
        Map<String, String> parameters = Map.of(
                "goodput.history.file", history.toString(),
                "goodput.history.commit", "0123456789abcdef",
                "goodput.history.branch", "main");

        execute(TwoGates.class, parameters).assertStatistics(stats -> stats.succeeded(2));
        execute(TwoGates.class, parameters).assertStatistics(stats -> stats.succeeded(2));

        List<HistoryEntry> entries = RunHistory.read(history);
        assertThat(entries).hasSize(6);
        assertThat(RunHistory.byTest(entries))
                .containsOnlyKeys("TwoGates/annotated", "TwoGates/runner-run1", "TwoGates/runner-run2")
                .allSatisfy((test, runs) -> assertThat(runs).hasSize(2));
        assertThat(entries).allSatisfy(entry -> {
            assertThat(entry.commit()).isEqualTo("0123456789abcdef");
            assertThat(entry.branch()).isEqualTo("main");
            assertThat(entry.figures().keySet()).containsExactlyElementsOf(HistoryEntry.KEY_FIGURES);
            assertThat(entry.figure(HistoryEntry.ERROR_RATE)).isZero();
            assertThat(entry.figure(HistoryEntry.GOODPUT_RPS)).isPositive();
        });
        // Each test id is its report directory, so the index finds the history of each row.
        String index = Files.readString(reports.resolve("index.html"), StandardCharsets.UTF_8);
        assertThat(index)
                .contains("<h2>History</h2>")
                .contains("id=\"trend-TwoGates-annotated-ttft_p99_ms\"")
                .contains("id=\"trend-TwoGates-runner-run2-goodput_rps\"");
    }

    @Test
    void should_append_nothing_without_a_history_file() throws IOException {
        execute(TwoGates.class, Map.of()).assertStatistics(stats -> stats.succeeded(2));

        try (var files = Files.walk(reports)) {
            assertThat(files.map(Path::toString).filter(name -> name.endsWith(".jsonl")))
                    .isEmpty();
        }
        assertThat(Files.readString(reports.resolve("index.html"), StandardCharsets.UTF_8))
                .doesNotContain("History");
    }

    @Test
    void should_only_warn_when_the_history_cannot_be_written() throws IOException {
        // A directory where the file should be: the append fails, the gate does not.
        Path history = Files.createDirectories(reports.resolve("taken.jsonl"));
        PrintStream original = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            execute(TwoGates.class, Map.of("goodput.history.file", history.toString()))
                    .assertStatistics(stats -> stats.succeeded(2).failed(0));
        } finally {
            System.setErr(original);
        }
        String suffix = ": cannot append to the history file goodput.history.file = '" + history + "': ";
        assertThat(err.toString(StandardCharsets.UTF_8).lines().filter(line -> line.startsWith("WARNING: ")))
                .allSatisfy(line -> assertThat(line).contains(suffix))
                .extracting(line -> line.substring(0, line.indexOf(suffix)))
                .containsExactlyInAnyOrder(
                        "WARNING: TwoGates.annotated()", "WARNING: TwoGates.runner()", "WARNING: TwoGates.runner()");
    }

    @Test
    void should_take_the_commit_from_the_parameter_then_the_ci_variables() {
        Map<String, String> gitlab = Map.of("CI_COMMIT_SHA", "feed", "CI_COMMIT_REF_NAME", "mr-7");
        Map<String, String> both = Map.of("GITHUB_SHA", "beef", "CI_COMMIT_SHA", "feed");

        assertThat(GateHistory.parameterOrEnvironment(Optional.of("cafe"), both::get, "GITHUB_SHA", "CI_COMMIT_SHA"))
                .isEqualTo("cafe");
        assertThat(GateHistory.parameterOrEnvironment(Optional.empty(), both::get, "GITHUB_SHA", "CI_COMMIT_SHA"))
                .isEqualTo("beef");
        assertThat(GateHistory.parameterOrEnvironment(Optional.empty(), gitlab::get, "GITHUB_SHA", "CI_COMMIT_SHA"))
                .isEqualTo("feed");
        assertThat(GateHistory.parameterOrEnvironment(
                        Optional.empty(), Map.<String, String>of()::get, "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"))
                .isEmpty();
    }
}
