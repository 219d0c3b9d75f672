package dev.goodput.junit;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * An API key given through the environment reaches the server and nothing else: not the console, not a report
 * file of any kind, not the failure message, not the result. The server here is hostile on purpose: every
 * other request is answered with a 401 whose body echoes the {@code Authorization} header, as some proxies
 * do, so the key arrives back inside the reasons of failed requests. The preflight would refuse such a server
 * (its second request is refused), so the run's test turns it off; the preflight's own test has every request
 * refused, so the key arrives back inside the preflight's failure.
 */
@ResourceLock(value = Resources.SYSTEM_OUT, mode = ResourceAccessMode.READ_WRITE)
@ResourceLock(value = Resources.SYSTEM_ERR, mode = ResourceAccessMode.READ_WRITE)
class ApiKeyNeverLeaksTest {

    private static final String SECRET = "sk-goodput-test-4f9c2a7e1d3b5a6c8e0f";

    @TempDir
    Path reports;

    @GoodputTest
    static class GateWithAKey {
        @ServerUnderTest
        static ServerEndpoint server;

        static RunResult captured;

        @org.junit.jupiter.api.Test
        @Workload(inputTokens = 8, outputTokens = 4)
        @LoadProfile(rate = 40, requests = 12)
        @Slo(metric = TTFT, percentile = 50, atMost = 0.001) // violated, so there is a failure message
        void gate(RunResult result) {
            captured = result;
        }
    }

    @Test
    void should_keep_the_api_key_out_of_logs_reports_messages_and_the_result() throws Exception {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        AtomicInteger arrivals = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> echoOrStream(exchange, arrivals.getAndIncrement(), authorizations));
        server.createContext("/metrics", ApiKeyNeverLeaksTest::noMetrics);
        server.start();
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Events events;
        try {
            GateWithAKey.server = ServerEndpoint.of(
                            "http://127.0.0.1:" + server.getAddress().getPort(), "keyed")
                    .withApiKeyFromEnvironment("GOODPUT_TEST_API_KEY")
                    .withEnvironment(Map.of("GOODPUT_TEST_API_KEY", SECRET)::get);
            System.setOut(new PrintStream(new TeeStream(originalOut, console), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new TeeStream(originalErr, console), true, StandardCharsets.UTF_8));
            events = EngineTestKit.engine("junit-jupiter")
                    .configurationParameter("goodput.report.dir", reports.toString())
                    .configurationParameter("goodput.progress", "on")
                    .configurationParameter("goodput.preflight", "off")
                    .selectors(selectClass(GateWithAKey.class))
                    .execute()
                    .testEvents();
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
            server.stop(0);
            GateWithAKey.server = null;
        }

        assertThat(authorizations).hasSize(12).containsOnly("Bearer " + SECRET);
        RunResult result = GateWithAKey.captured;
        assertThat(result.records())
                .filteredOn(record -> record.httpStatus() == 401)
                .hasSize(6)
                .allSatisfy(record -> assertThat(record.errorDetail())
                        .isEqualTo("HTTP 401: invalid key Bearer [redacted API key] (code: 401)"));
        assertThat(result.toString()).doesNotContain(SECRET);
        String message = GoodputExtensionTest.failureMessages(events).get("gate");
        assertThat(message).isNotNull().doesNotContain(SECRET);
        assertThat(console.toString(StandardCharsets.UTF_8))
                .as("everything printed during the run")
                .isNotEmpty()
                .doesNotContain(SECRET);
        List<Path> written;
        try (Stream<Path> files = Files.walk(reports)) {
            written = files.filter(Files::isRegularFile).toList();
        }
        assertThat(written)
                .extracting(path -> path.getFileName().toString())
                .contains("result.json", "requests.csv", "summary.txt");
        for (Path file : written) {
            assertThat(Files.readString(file)).as(file.toString()).doesNotContain(SECRET);
        }
        assertThat(Files.readString(reports.resolve("GateWithAKey/gate/requests.csv")))
                .contains("[redacted API key]");
    }

    @Test
    void should_keep_the_api_key_out_of_the_preflights_failure_and_the_console() throws Exception {
        List<String> authorizations = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> echoOrStream(exchange, 1, authorizations));
        server.createContext("/metrics", ApiKeyNeverLeaksTest::noMetrics);
        server.start();
        PrintStream originalOut = System.out;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        Events events;
        String baseUrl = "http://127.0.0.1:" + server.getAddress().getPort();
        try {
            GateWithAKey.server = ServerEndpoint.of(baseUrl, "keyed")
                    .withApiKeyFromEnvironment("GOODPUT_TEST_API_KEY")
                    .withEnvironment(Map.of("GOODPUT_TEST_API_KEY", SECRET)::get);
            System.setOut(new PrintStream(new TeeStream(originalOut, console), true, StandardCharsets.UTF_8));
            events = EngineTestKit.engine("junit-jupiter")
                    .configurationParameter("goodput.report.dir", reports.toString())
                    .configurationParameter("goodput.progress", "off")
                    .selectors(selectClass(GateWithAKey.class))
                    .execute()
                    .testEvents();
        } finally {
            System.setOut(originalOut);
            server.stop(0);
            GateWithAKey.server = null;
        }

        assertThat(authorizations).as("the preflight's one request").containsExactly("Bearer " + SECRET);
        assertThat(GoodputExtensionTest.failureMessages(events).get("gate"))
                .startsWith("GateWithAKey.gate(): preflight failed: GET " + baseUrl + "/v1/models: HTTP 401: invalid"
                        + " key Bearer [redacted API key] (code: 401)\n")
                .doesNotContain(SECRET);
        assertThat(console.toString(StandardCharsets.UTF_8)).doesNotContain(SECRET);
    }

    private static void echoOrStream(HttpExchange exchange, int arrival, List<String> authorizations)
            throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            authorizations.add(authorization);
            if (arrival % 2 == 1) {
                byte[] body = ("{\"error\":{\"message\":\"invalid key " + authorization + "\",\"code\":401}}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(401, body.length);
                exchange.getResponseBody().write(body);
                return;
            }
            String stream = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n"
                    + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" b\"},\"finish_reason\":\"length\"}]}\n\n"
                    + "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":2}}\n\n"
                    + "data: [DONE]\n\n";
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().write(stream.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Writes to the real stream and to the capture. */
    private static final class TeeStream extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        TeeStream(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }
    }

    /** No Prometheus metrics: the scrape is noted and not repeated, and it is not one of the requests counted. */
    private static void noMetrics(com.sun.net.httpserver.HttpExchange exchange) throws java.io.IOException {
        try (exchange) {
            exchange.sendResponseHeaders(404, -1);
        }
    }
}
