package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.testing.SampleResults;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * A closed loop offers no rate: its console lines say what holds for it, the users and their throughput, and a loop
 * whose users all sent one request at once is one wave, not a queue that outgrew an offered rate (issue 33).
 */
class ClosedLoopSteadyStateTest {

    private static RunResult closedLoop(int users, List<RequestRecord> records) {
        RunSpec spec = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
                .workload(WorkloadSpec.synthetic().build())
                .load(Load.concurrency(users).requests(records.size()))
                .build();
        return ResultCalculator.compute(
                spec,
                RunEnvironment.current(Instant.EPOCH),
                RunSnapshot.of(records, new Histogram(3), new Histogram(3)));
    }

    @Test
    void should_say_a_closed_loop_sent_in_one_wave_has_no_steady_state_and_give_its_throughput() {
        // 128 users each send one request at 0 ms, dispatched within 42 ms, answered one after another over 3.3 s.
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 128; i++) {
            long dispatched = i / 3;
            records.add(SampleResults.success(
                    i, Phase.MEASURED, 0, dispatched, dispatched + 20, 100 + 25L * i, 100 + 25L * i, 8));
        }

        String console = ConsoleReport.format(closedLoop(128, records));

        assertThat(console)
                .contains("load: closed loop of 128 users, throughput 39.08 req/s, window 3.28 s, peak in flight 128\n")
                .contains("steady state: none, the 128 measured requests were one wave: all meant to start within"
                        + " 0.00 ms, less than the median request took (1700 ms), so none waited for another's end"
                        + " and the load only drained\n")
                .doesNotContain("offered", "achieved");
    }

    @Test
    void should_give_a_steady_closed_loop_its_start_and_end_rates_and_users_not_an_offered_rate() {
        // 10 users, each sending again as its request ends 100 ms after it was sent: 100 requests a second.
        List<RequestRecord> records = new ArrayList<>();
        int index = 0;
        for (int round = 0; round < 60; round++) {
            for (int user = 0; user < 10; user++) {
                long start = round * 100L + user;
                records.add(SampleResults.success(
                        index++, Phase.MEASURED, start, start, start + 20, start + 100, start + 100, 8));
            }
        }

        String console = ConsoleReport.format(closedLoop(10, records));

        assertThat(console)
                .containsPattern(
                        "steady state: \\d\\.\\d\\d s \\.\\. \\d\\.\\d\\d s of the window \\(\\d\\.\\d\\d s\\),"
                                + " \\d+ of 600 measured requests \\(\\d+%\\) inside; requests started 10\\d\\.\\d\\d/s and"
                                + " ended (99|10\\d)\\.\\d\\d/s, mean in flight (9|10)\\.\\d of 10 users\n")
                .contains("load: closed loop of 10 users, throughput ")
                .doesNotContain("offered", "achieved");
    }
}
