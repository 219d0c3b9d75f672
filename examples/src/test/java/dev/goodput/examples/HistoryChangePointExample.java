package dev.goodput.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.history.ChangePoint;
import dev.goodput.core.history.ChangePoints;
import dev.goodput.core.history.HistoryEntry;
import dev.goodput.core.history.RunHistory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads a run history and finds where a nightly series shifted: 40 nights of p99 TTFT around 120 ms, then 20 nights
 * around 142 ms from commit {@code c000040} on.
 */
class HistoryChangePointExample {

    @TempDir
    Path directory;

    @Test
    void finds_the_commit_where_p99_ttft_rose() throws IOException {
        Path history = directory.resolve("goodput-history.jsonl");
        Random noise = new Random(7);
        for (int night = 0; night < 60; night++) {
            double ttftP99 = (night < 40 ? 120 : 142) + 3 * noise.nextGaussian();
            RunHistory.append(
                    history,
                    new HistoryEntry(
                            "ChatGateExample/chat",
                            Instant.parse("2026-09-01T02:00:00Z").plusSeconds(86_400L * night),
                            String.format("c%06d", night),
                            "main",
                            "0.2.0",
                            Map.of(HistoryEntry.TTFT_P99_MS, ttftP99)));
        }

        // tag::change-points[]
        List<HistoryEntry> nights = RunHistory.byTest(RunHistory.read(history)).get("ChatGateExample/chat");
        List<ChangePoint> shifts = ChangePoints.defaults() // window 30, p <= 0.001, change >= 5 %
                .find(nights, HistoryEntry.TTFT_P99_MS);
        for (ChangePoint shift : shifts) {
            System.out.println(shift.describe() + (shift.isRegression() ? " (regression)" : ""));
        }
        // end::change-points[]

        assertThat(shifts).singleElement().satisfies(shift -> {
            assertThat(shift.index()).isEqualTo(40);
            assertThat(shift.commit()).isEqualTo("c000040");
            assertThat(shift.isRegression()).isTrue();
            assertThat(shift.describe())
                    .isEqualTo("ttft_p99_ms shifted +19 % at commit c000040 (119.6 -> 141.9), p = 3e-28");
        });
    }
}
