package dev.goodput.core.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChangePointReportTest {

    @TempDir
    Path directory;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void should_fail_on_a_recent_latency_rise() throws IOException {
        Path file = history(
                ChangePointsTest.concat(ChangePointsTest.normal(1, 40, 100, 3), ChangePointsTest.normal(2, 8, 125, 3)));

        int code = run(file.toString(), "--last", "10");

        assertThat(code).isEqualTo(1);
        assertThat(out())
                .contains("entry 41: ttft_p99_ms shifted +2")
                .contains("at commit c000040")
                .contains("REGRESSION")
                .contains("1 regression(s) in the last 10 entries:");
    }

    @Test
    void should_pass_when_the_rise_is_older_than_the_last_entries() throws IOException {
        Path file = history(ChangePointsTest.concat(
                ChangePointsTest.normal(1, 40, 100, 3), ChangePointsTest.normal(2, 20, 125, 3)));

        assertThat(run(file.toString(), "--last", "10")).isZero();
        assertThat(out()).contains("regression, older").contains("no regression in the last 10 entries of any test");
    }

    @Test
    void should_pass_on_a_latency_fall() throws IOException {
        Path file = history(
                ChangePointsTest.concat(ChangePointsTest.normal(1, 40, 100, 3), ChangePointsTest.normal(2, 8, 75, 3)));

        assertThat(run(file.toString())).isZero();
        assertThat(out()).contains("ttft_p99_ms shifted -2").doesNotContain("REGRESSION");
    }

    @Test
    void should_say_when_a_test_has_no_change_point() throws IOException {
        Path file = history(ChangePointsTest.normal(3, 30, 100, 3));

        assertThat(run(file.toString())).isZero();
        assertThat(out()).contains("A/a (30 entries)\n  no change point\n");
    }

    @Test
    void should_exit_2_naming_a_bad_option_or_file() throws IOException {
        assertThat(run("h.jsonl", "--last", "0")).isEqualTo(2);
        assertThat(err()).startsWith("--last = '0' is not a whole number of at least 1\nusage: ChangePointReport");

        Path bad = directory.resolve("bad.jsonl");
        Files.writeString(bad, "[]\n", StandardCharsets.UTF_8);
        err.reset();
        assertThat(run(bad.toString())).isEqualTo(2);
        assertThat(err()).isEqualTo("history file " + bad + " line 1: not a JSON object: []\n");
    }

    @Test
    void should_exit_2_for_a_history_path_that_does_not_exist_or_is_not_a_file() {
        Path missing = directory.resolve("nightly/goodput-history.jsonl");

        assertThat(run(missing.toString())).isEqualTo(2);
        assertThat(err()).isEqualTo("no history file at " + missing.toAbsolutePath() + " (it does not exist)\n");
        assertThat(out()).isEmpty();

        err.reset();
        assertThat(run(directory.toString())).isEqualTo(2);
        assertThat(err()).isEqualTo("no history file at " + directory.toAbsolutePath() + " (it is not a file)\n");
    }

    @Test
    void should_word_a_line_that_is_not_json_by_the_files_line_and_the_lines_column() throws IOException {
        Path file = history(ChangePointsTest.normal(3, 3, 100, 3));
        Files.writeString(file, "{\"test\": oops}\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);

        assertThat(run(file.toString())).isEqualTo(2);
        assertThat(err())
                .isEqualTo("history file " + file + " line 4: not JSON: unrecognized token 'oops' at column 10:"
                        + " {\"test\": oops}\n");
    }

    private Path history(double[] values) throws IOException {
        Path file = directory.resolve("history.jsonl");
        for (int i = 0; i < values.length; i++) {
            RunHistory.append(
                    file,
                    new HistoryEntry(
                            "A/a",
                            Instant.EPOCH.plusSeconds(86_400L * i),
                            String.format("c%06d", i),
                            "main",
                            "dev",
                            Map.of(HistoryEntry.TTFT_P99_MS, values[i])));
        }
        return file;
    }

    private int run(String... args) {
        return ChangePointReport.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
