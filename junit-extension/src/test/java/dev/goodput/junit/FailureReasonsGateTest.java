package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.result.RunResult;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * A gate against a server that is down, and against one that does not serve the model asked for: the reason every
 * request failed, with its count, is in the failure message, the console summary, result.json, report.html and the
 * index page, and the message names the server's URL and model.
 */
class FailureReasonsGateTest {

    private static final String REFUSED = "connection refused or unreachable (ConnectException)";
    private static final String NO_SUCH_MODEL =
            "HTTP 404: The model `llama-3-70b` does not exist. (type: NotFoundError, code: 404)";

    @TempDir
    Path reports;

    @GoodputTest
    static class AgainstTheConfiguredServer {
        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        // 20 measured requests: enough for a median's interval, so the sample-size check lets the load run.
        @LoadProfile(rate = 50, requests = 22, warmupRequests = 2)
        @Slo(metric = TTFT, percentile = 50, atMost = 500)
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_name_the_refused_connection_and_the_server_everywhere_a_user_looks() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;

        String message = failureMessage(url, "m");

        assertEverywhere(message, url, "m", REFUSED, "none");
    }

    @Test
    void should_name_the_missing_model_everywhere_a_user_looks() throws IOException {
        String message;
        String url;
        try (MockServer server = MockServer.start(MockServerConfig.defaults())) {
            url = server.baseUrl();
            message = failureMessage(url, "llama-3-70b");
        }

        assertEverywhere(message, url, "llama-3-70b", NO_SUCH_MODEL, "404");
    }

    private void assertEverywhere(String message, String url, String model, String reason, String status)
            throws IOException {
        Path directory = reports.resolve("AgainstTheConfiguredServer").resolve("gate");
        String verdict = AgainstTheConfiguredServer.captured.verdicts().get(0).describe();
        assertThat(message)
                .isEqualTo("AgainstTheConfiguredServer.gate(): 1 of 1 objectives not met\n"
                        + "  " + verdict + "\n"
                        + "load: poisson 50.0 req/s, 22 requests against " + url + " (model " + model + ")"
                        + " from configuration parameter goodput.server.url\n"
                        + "requests: 22 scheduled, 0 succeeded, 22 failed, 0 timed out, 0 cancelled (20 measured)\n"
                        + "why 22 requests did not succeed (warm-up and cool-down included):\n"
                        + "  22 x " + reason + "\n"
                        + "reports: " + directory);

        assertThat(Files.readString(directory.resolve("summary.txt")))
                .startsWith("Goodput run: poisson 50.0 req/s, 22 requests against " + url + " (model " + model + ")\n"
                        + "requests: 22 scheduled, 0 succeeded, 22 failed, 0 timed out, 0 cancelled (20 measured)\n"
                        + "why 22 requests did not succeed (warm-up and cool-down included):\n"
                        + "  22 x " + reason + "\n"
                        + "load: ");

        JsonNode failures = new ObjectMapper()
                .readTree(directory.resolve("result.json").toFile())
                .get("failures");
        assertThat(failures.toString())
                .isEqualTo("{\"requests\":22,\"includes_warmup_and_cooldown\":true,"
                        + "\"by_outcome\":{\"failed\":22,\"timed_out\":0,\"cancelled\":0},\"distinct_reasons\":1,"
                        + "\"reasons\":[{\"outcome\":\"failed\",\"reason\":"
                        + new ObjectMapper().writeValueAsString(reason)
                        + ",\"count\":22,\"example_indices\":[0,1,2]}]}");

        String escaped = reason.replace("'", "&#39;");
        assertThat(Files.readString(directory.resolve("report.html")))
                .contains("<h2 id=\"failures\">Failures</h2><p class=\"note\">22 of 22 requests did not succeed"
                        + " (22 failed, 0 timed out, 0 cancelled), warm-up and cool-down included. Every request&#39;s"
                        + " reason is in requests.csv, column error.</p>"
                        + "<table><tr><th>requests</th><th>outcome</th><th>reason</th><th>example requests</th></tr>"
                        + "<tr><td>22</td><td>failed</td><td><div class=\"reason\">" + escaped + "</div></td>"
                        + "<td>0, 1, 2</td></tr></table>")
                .contains("<tr><th>request</th><th>phase</th><th>outcome</th><th>HTTP status</th><th>reason</th></tr>"
                        + "<tr><td>0</td><td>warmup</td><td>failed</td><td>" + status + "</td>"
                        + "<td><div class=\"reason\">" + escaped + "</div></td></tr>"
                        + "<tr><td>1</td><td>warmup</td><td>failed</td><td>" + status + "</td>"
                        + "<td><div class=\"reason\">" + escaped + "</div></td></tr>"
                        + "<tr><td>2</td><td>measured</td><td>failed</td><td>" + status + "</td>");

        assertThat(Files.readString(reports.resolve("index.html")))
                .contains("<td>run</td><td>22</td><td>0.00 req/s</td><td>n/a</td><td>100.00 %</td><td></td>"
                        + "<td><div class=\"reason\">p50 TTFT INCONCLUSIVE (no samples)</div></td>"
                        + "<td><div class=\"reason\">22 x " + escaped + "</div></td>");
    }

    private String failureMessage(String url, String model) {
        Events events = EngineTestKit.engine("junit-jupiter")
                .configurationParameter("goodput.report.dir", reports.toString())
                .configurationParameter("goodput.progress", "off")
                // The load itself must meet the broken server for its reasons to be counted; the preflight, which
                // would stop it first, has its own test (PreflightGateTest).
                .configurationParameter("goodput.preflight", "off")
                // The message's every line is asserted: a busy machine's send lag must not add a "client:" line.
                .configurationParameter("goodput.client.send-lag-limit-ms", "60000")
                .configurationParameters(Map.of("goodput.server.url", url, "goodput.server.model", model))
                .selectors(selectClass(AgainstTheConfiguredServer.class))
                .execute()
                .testEvents();
        events.assertStatistics(stats -> stats.started(1).failed(1));
        return events.failed()
                .list()
                .get(0)
                .getPayload(TestExecutionResult.class)
                .orElseThrow()
                .getThrowable()
                .orElseThrow()
                .getMessage();
    }
}
