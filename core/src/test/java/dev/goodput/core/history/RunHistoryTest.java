package dev.goodput.core.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunHistoryTest {

    @TempDir
    Path directory;

    @Test
    void should_read_back_what_it_appended_with_nan_as_null() throws IOException {
        Path file = directory.resolve("nested/history.jsonl");
        Map<String, Double> figures = new LinkedHashMap<>();
        figures.put(HistoryEntry.GOODPUT_RPS, 4.5);
        figures.put(HistoryEntry.TPOT_P50_MS, Double.NaN);
        HistoryEntry first = new HistoryEntry(
                "ChatGate/chat", Instant.parse("2026-11-24T16:00:00Z"), "abc1234567", "main", "0.2.0", figures);
        HistoryEntry second = new HistoryEntry(
                "ChatGate/chat", Instant.parse("2026-11-25T16:00:00Z"), "", "", "dev", Map.of("error_rate", 0.25));

        RunHistory.append(file, first);
        RunHistory.append(file, second);

        assertThat(Files.readAllLines(file).get(0))
                .isEqualTo("{\"test\":\"ChatGate/chat\",\"time\":\"2026-11-24T16:00:00Z\",\"commit\":\"abc1234567\","
                        + "\"branch\":\"main\",\"goodput_version\":\"0.2.0\","
                        + "\"figures\":{\"goodput_rps\":4.5,\"tpot_p50_ms\":null}}");
        List<HistoryEntry> read = RunHistory.read(file);
        assertThat(read).hasSize(2);
        assertThat(read.get(0).testId()).isEqualTo("ChatGate/chat");
        assertThat(read.get(0).time()).isEqualTo(first.time());
        assertThat(read.get(0).commit()).isEqualTo("abc1234567");
        assertThat(read.get(0).shortCommit()).isEqualTo("abc1234");
        assertThat(read.get(0).branch()).isEqualTo("main");
        assertThat(read.get(0).goodputVersion()).isEqualTo("0.2.0");
        assertThat(read.get(0).figure(HistoryEntry.GOODPUT_RPS)).isEqualTo(4.5);
        assertThat(read.get(0).figure(HistoryEntry.TPOT_P50_MS)).isNaN();
        assertThat(read.get(0).figures()).containsOnlyKeys(HistoryEntry.GOODPUT_RPS, HistoryEntry.TPOT_P50_MS);
        assertThat(read.get(1).figure(HistoryEntry.ERROR_RATE)).isEqualTo(0.25);
        assertThat(read.get(1).commit()).isEmpty();
    }

    @Test
    void should_take_the_key_figures_of_a_run() {
        RunResult result = SampleResults.compute(List.<SloSpec>of());

        HistoryEntry entry = HistoryEntry.of("Sample/run", result, "c0ffee", "main");

        assertThat(entry.figures().keySet()).containsExactlyElementsOf(HistoryEntry.KEY_FIGURES);
        assertThat(entry.time()).isEqualTo(result.environment().startedAt());
        // TTFTs of the measured sample requests are 50, 100, 150 and 200 ms: p99 is 150 + 0.97 * 50 (type 7).
        assertThat(entry.figure(HistoryEntry.TTFT_P99_MS)).isCloseTo(198.5, org.assertj.core.data.Offset.offset(0.5));
        assertThat(entry.figure(HistoryEntry.ERROR_RATE)).isEqualTo(0.2);
        assertThat(entry.figure(HistoryEntry.GOODPUT_RPS)).isEqualTo(result.goodput());
    }

    @Test
    void should_name_the_file_and_line_of_a_malformed_line() throws IOException {
        Path file = directory.resolve("history.jsonl");
        Files.writeString(
                file,
                RunHistory.toJson(entry("A/a", 1)) + "\n\n{\"test\":\"A/a\",\"time\":\"yesterday\",\"figures\":{}}\n",
                StandardCharsets.UTF_8);

        assertThatThrownBy(() -> RunHistory.read(file))
                .isInstanceOf(HistoryFileException.class)
                .hasMessage("history file " + file + " line 3: field time = 'yesterday' is not an ISO-8601 instant");
    }

    @Test
    void should_refuse_a_line_that_is_not_json() throws IOException {
        Path file = directory.resolve("history.jsonl");
        Files.writeString(
                file, RunHistory.toJson(entry("A/a", 1)) + "\n{\"test\":\"A/a\",\"ti", StandardCharsets.UTF_8);

        assertThatThrownBy(() -> RunHistory.read(file))
                .isInstanceOf(HistoryFileException.class)
                .hasMessageStartingWith("history file " + file + " line 2: not JSON");
    }

    @Test
    void should_refuse_a_figure_that_is_not_a_number() throws IOException {
        Path file = directory.resolve("history.jsonl");
        Files.writeString(
                file,
                "{\"test\":\"A/a\",\"time\":\"2026-11-24T16:00:00Z\",\"figures\":{\"goodput_rps\":\"fast\"}}\n",
                StandardCharsets.UTF_8);

        assertThatThrownBy(() -> RunHistory.read(file))
                .hasMessage("history file " + file + " line 1: figure goodput_rps = \"fast\" is neither a number nor"
                        + " null");
    }

    @Test
    void should_read_a_missing_file_as_an_empty_history() {
        assertThat(RunHistory.read(directory.resolve("none.jsonl"))).isEmpty();
    }

    @Test
    void should_keep_the_newest_entries_of_each_test_in_file_order() throws IOException {
        Path file = directory.resolve("history.jsonl");
        for (int i = 0; i < 5; i++) {
            RunHistory.append(file, entry("A/a", i));
            RunHistory.append(file, entry("B/b", 100 + i));
        }
        RunHistory.append(file, entry("C/c", 200));

        List<HistoryEntry> read = RunHistory.read(file, 2);

        assertThat(read)
                .extracting(entry -> entry.testId() + "=" + entry.figure("value"))
                .containsExactly("A/a=3.0", "B/b=103.0", "A/a=4.0", "B/b=104.0", "C/c=200.0");
        assertThat(RunHistory.byTest(read).keySet()).containsExactly("A/a", "B/b", "C/c");
        assertThat(RunHistory.byTest(read).get("B/b"))
                .extracting(entry -> entry.figure("value"))
                .containsExactly(103.0, 104.0);
    }

    @Test
    void should_lose_no_line_when_threads_append_at_once() throws Exception {
        Path file = directory.resolve("history.jsonl");
        int threads = 8;
        int perThread = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                String test = "T/t" + t;
                tasks.add(() -> {
                    for (int i = 0; i < perThread; i++) {
                        RunHistory.append(file, entry(test, i));
                    }
                    return null;
                });
            }
            for (Future<Void> done : pool.invokeAll(tasks)) {
                done.get();
            }
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        Map<String, List<HistoryEntry>> tests = RunHistory.byTest(RunHistory.read(file));
        assertThat(tests).hasSize(threads);
        for (List<HistoryEntry> entries : tests.values()) {
            // Every line whole, and each thread's lines in the order it wrote them.
            assertThat(entries)
                    .extracting(entry -> entry.figure("value"))
                    .containsExactlyElementsOf(IntStream.range(0, perThread)
                            .mapToObj(i -> (double) i)
                            .toList());
        }
    }

    @Test
    void should_lose_no_line_when_several_jvms_append_at_once() throws Exception {
        Path file = directory.resolve("history.jsonl");
        String launcher =
                Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> processes = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            processes.add(new ProcessBuilder(
                            launcher,
                            "-cp",
                            System.getProperty("java.class.path"),
                            AppendFromAnotherJvm.class.getName(),
                            file.toString(),
                            "J/jvm" + p,
                            "200")
                    .redirectErrorStream(true)
                    .start());
        }
        for (Process process : processes) {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue())
                    .as(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                    .isZero();
        }

        Map<String, List<HistoryEntry>> tests = RunHistory.byTest(RunHistory.read(file));
        assertThat(tests).containsOnlyKeys("J/jvm0", "J/jvm1", "J/jvm2");
        assertThat(tests.values())
                .allSatisfy(entries -> assertThat(entries)
                        .extracting(entry -> entry.figure("value"))
                        .containsExactlyElementsOf(IntStream.range(0, 200)
                                .mapToObj(i -> (double) i)
                                .toList()));
    }

    static HistoryEntry entry(String test, double value) {
        return new HistoryEntry(test, Instant.EPOCH, "", "", "dev", Map.of("value", value));
    }
}
