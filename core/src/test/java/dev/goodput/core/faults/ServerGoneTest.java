package dev.goodput.core.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.ScrapeSettings;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * A run against a server that is gone: by default it sends its whole schedule into the refused port and counts
 * every request; told to stop when the server is gone, it stops after {@link RunSpec#SERVER_GONE_AFTER} refusals in
 * a row, says why, and still accounts for every request it created.
 */
class ServerGoneTest {

    private static final int PLANNED = 400;

    /** Returns a loopback port nothing listens on: one just freed. */
    private static int deadPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static Goodput.RunBuilder runAgainstNothing() throws IOException {
        return Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:" + deadPort(), "gone"))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(8).outputTokens(4).build())
                .load(Load.concurrency(4).requests(PLANNED))
                .preflight(false)
                .serverMetrics(ScrapeSettings.OFF);
    }

    @Test
    void should_send_the_whole_schedule_into_a_refused_port_by_default_and_count_every_request() throws IOException {
        RunResult result = runAgainstNothing().run();

        assertThat(result.stoppedEarly()).isFalse();
        assertThat(result.accounting().scheduled()).isEqualTo(PLANNED);
        assertThat(result.accounting().count(Outcome.FAILED)).isEqualTo(PLANNED);
        assertThat(result.notes()).isEmpty();
    }

    @Test
    void should_stop_once_the_server_is_plainly_gone_say_why_and_account_for_every_request_created()
            throws IOException {
        RunResult result = runAgainstNothing().stopWhenServerGone(true).run();

        assertThat(result.stoppedEarly()).isTrue();
        assertThat(result.stopReason())
                .startsWith("the server was gone: " + RunSpec.SERVER_GONE_AFTER
                        + " requests in a row found no server to connect to (the last: connection refused or"
                        + " unreachable (");
        long created = result.accounting().scheduled();
        // The stop comes at the 20th refusal; the four users may have created a few more meanwhile.
        assertThat(created).isBetween((long) RunSpec.SERVER_GONE_AFTER, RunSpec.SERVER_GONE_AFTER + 40L);
        assertThat(result.accounting().isBalanced()).isTrue();
        assertThat(result.records()).hasSize((int) created);
        assertThat(result.accounting().count(Outcome.SUCCESS)).isZero();
        assertThat(result.notes())
                .containsExactly("the run was stopped early: " + result.stopReason() + "; " + created
                        + " requests created, each counted in its outcome; the other " + (PLANNED - created)
                        + " of the " + PLANNED + " planned were never created");
    }
}
