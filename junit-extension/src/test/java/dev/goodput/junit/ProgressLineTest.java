package dev.goodput.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.RunProgress;
import dev.goodput.core.sweep.SweepProgress;
import dev.goodput.junit.GoodputConfiguration.Progress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The progress display on given progress values, second by second as the core reports them: a live line on a
 * terminal, plain lines every ten seconds in a log, nothing for short runs by default.
 */
class ProgressLineTest {

    private static final long SECOND = 1_000_000_000L;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** A run of {@code seconds} at 10 requests/s of 1 s each, one in 20 unsuccessful, reported every second. */
    private static RunProgress at(int second, int seconds) {
        long created = Math.min(10L * second, 10L * seconds);
        long ended = Math.max(0, Math.min(10L * (second - 1), 10L * seconds));
        boolean finished = second > seconds;
        if (finished) {
            ended = created;
        }
        return new RunProgress(created, ended, 10L * seconds, second * SECOND, 0, finished, ended / 20);
    }

    private void run(ProgressLine line, int seconds) {
        for (int second = 1; second <= seconds + 1; second++) {
            line.onProgress(at(second, seconds));
        }
    }

    @Test
    void should_choose_the_display_from_the_setting_and_the_terminal() {
        assertThat(ProgressDisplay.choose(Progress.OFF, true)).isEmpty();
        assertThat(ProgressDisplay.choose(Progress.OFF, false)).isEmpty();
        assertThat(ProgressDisplay.choose(Progress.AUTO, true)).hasValue(new ProgressDisplay(true, 3 * SECOND, 0));
        assertThat(ProgressDisplay.choose(Progress.ON, true)).hasValue(new ProgressDisplay(true, 3 * SECOND, 0));
        assertThat(ProgressDisplay.choose(Progress.AUTO, false))
                .hasValue(new ProgressDisplay(false, 15 * SECOND, 10 * SECOND));
        assertThat(ProgressDisplay.choose(Progress.ON, false))
                .hasValue(new ProgressDisplay(false, 10 * SECOND, 10 * SECOND));
    }

    @Test
    void should_print_a_plain_line_every_ten_seconds_from_the_fifteenth_in_a_log() {
        ProgressLine line = new ProgressLine(
                "Gate.m()", out, ProgressDisplay.choose(Progress.AUTO, false).orElseThrow());

        run(line, 40);

        assertThat(printed()).doesNotContain("\r");
        assertThat(printed().lines())
                .containsExactly(
                        "[goodput] Gate.m(): 15 s, 140/400 requests ended (9.3/s), 10 in flight, 7 unsuccessful",
                        "[goodput] Gate.m(): 25 s, 240/400 requests ended (10.0/s), 10 in flight, 12 unsuccessful",
                        "[goodput] Gate.m(): 35 s, 340/400 requests ended (10.0/s), 10 in flight, 17 unsuccessful",
                        "[goodput] Gate.m(): done after 41 s, 400 requests ended, 20 unsuccessful");
    }

    @Test
    void should_print_nothing_in_a_log_for_a_run_shorter_than_fifteen_seconds() {
        ProgressLine line = new ProgressLine(
                "Gate.m()", out, ProgressDisplay.choose(Progress.AUTO, false).orElseThrow());

        run(line, 13);

        assertThat(printed()).isEmpty();
    }

    @Test
    void should_start_at_ten_seconds_in_a_log_when_switched_on() {
        ProgressLine line = new ProgressLine(
                "Gate.m()", out, ProgressDisplay.choose(Progress.ON, false).orElseThrow());

        run(line, 12);

        assertThat(printed().lines())
                .containsExactly(
                        "[goodput] Gate.m(): 10 s, 90/120 requests ended (9.0/s), 10 in flight, 4 unsuccessful",
                        "[goodput] Gate.m(): done after 13 s, 120 requests ended, 6 unsuccessful");
    }

    @Test
    void should_keep_its_cadence_when_reports_come_late() {
        ProgressLine line = new ProgressLine(
                "Gate.m()", out, ProgressDisplay.choose(Progress.ON, false).orElseThrow());
        for (long nanos : List.of(4 * SECOND, 11 * SECOND, 13 * SECOND, 20 * SECOND, 21 * SECOND, 33 * SECOND)) {
            line.onProgress(new RunProgress(100, 50, 0, nanos, 60 * SECOND, false, 0));
        }

        assertThat(printed().lines())
                .extracting(printed -> printed.substring(0, printed.indexOf(',')))
                .containsExactly(
                        "[goodput] Gate.m(): 11/60 s", "[goodput] Gate.m(): 21/60 s", "[goodput] Gate.m(): 33/60 s");
    }

    @Test
    void should_rewrite_one_line_in_place_on_a_terminal_after_three_seconds() {
        ProgressLine line = new ProgressLine(
                "Gate.m()", out, ProgressDisplay.choose(Progress.AUTO, true).orElseThrow());

        run(line, 4);

        assertThat(printed())
                .isEqualTo("\r[goodput] Gate.m(): 30/40 requests sent, 20 ended, 10 in flight, 1 unsuccessful, 3 s"
                        + "\r[goodput] Gate.m(): 40/40 requests sent, 30 ended, 10 in flight, 1 unsuccessful, 4 s"
                        + "\r[goodput] Gate.m(): 40/40 requests sent, 40 ended, 0 in flight, 2 unsuccessful, 5 s"
                        + System.lineSeparator());
    }

    @Test
    void should_print_a_sweep_as_plain_lines_every_ten_seconds_in_a_log() {
        SweepProgressLine line = new SweepProgressLine(
                "Sweep.m()", out, ProgressDisplay.choose(Progress.AUTO, false).orElseThrow());
        for (int second = 1; second <= 40; second++) {
            RunProgress run = new RunProgress(5L * (second % 8), 4L * (second % 8), 40, 0, 0, false, 1);
            line.onProgress(new SweepProgress("rate 6.00 req/s", second / 8, 5, run, second * SECOND, 0));
        }

        assertThat(printed()).doesNotContain("\r");
        assertThat(printed().lines())
                .containsExactly(
                        "[goodput] Sweep.m(): 15 s, sweep run 2/5, rate 6.00 req/s, 28/40 requests, 7 in flight,"
                                + " 1 unsuccessful in this run",
                        "[goodput] Sweep.m(): 25 s, sweep run 4/5, rate 6.00 req/s, 4/40 requests, 1 in flight,"
                                + " 1 unsuccessful in this run",
                        "[goodput] Sweep.m(): 35 s, sweep run 5/5, rate 6.00 req/s, 12/40 requests, 3 in flight,"
                                + " 1 unsuccessful in this run");
    }

    @Test
    void should_show_nothing_when_off() {
        GoodputConfiguration off = new GoodputConfiguration(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                1,
                true,
                java.nio.file.Path.of("target"),
                Progress.OFF,
                true,
                true,
                true,
                java.util.List.of(),
                run -> run);

        assertThat(ProgressLine.forTest("Gate.m()", off)).isNull();
        assertThat(SweepProgressLine.forTest("Gate.m()", off)).isNull();
    }
}
