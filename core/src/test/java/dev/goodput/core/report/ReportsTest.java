package dev.goodput.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.ServerTimings;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.SampleResults;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportsTest {

    private static final RunResult RESULT = SampleResults.compute(List.of(
            SloSpec.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(180)),
            SloSpec.of(Metric.GOODPUT).atLeast(1.5)));

    @Test
    void should_write_versioned_json_with_configuration_metrics_verdicts_and_a_vllm_block() throws Exception {
        JsonNode json = new ObjectMapper().readTree(JsonReport.toJson(RESULT));

        assertThat(json.get("schema_version").asInt()).isEqualTo(JsonReport.SCHEMA_VERSION);
        assertThat(json.at("/configuration/server/model").asText()).isEqualTo("m");
        assertThat(json.at("/configuration/load/mode").asText()).isEqualTo("OPEN_LOOP");
        assertThat(json.at("/configuration/slos/0/text").asText()).isEqualTo("p90 TTFT ≤ 180.00 ms");
        assertThat(json.at("/configuration/slos/0/threshold").asDouble()).isEqualTo(180.0);
        assertThat(json.at("/accounting/scheduled").asLong()).isEqualTo(7);
        assertThat(json.at("/accounting/measured_by_outcome/failed").asLong()).isEqualTo(1);
        assertThat(json.at("/metrics/ttft_ms/p90").asDouble()).isCloseTo(185.0, within(1e-9));
        assertThat(json.at("/metrics/ttft_ms/count").asLong()).isEqualTo(4);
        assertThat(json.at("/metrics/goodput").asDouble()).isCloseTo(3.0, within(1e-9));
        // Five measured requests cannot show a rate of 3/s is at least 1.5/s: the interval over the window's time
        // bins holds the bound, and the verdict names how many samples it was worth.
        assertThat(json.at("/verdicts/1/verdict").asText()).isEqualTo("INCONCLUSIVE");
        assertThat(json.at("/verdicts/1/ci_lower").asDouble()).isLessThan(1.5);
        assertThat(json.at("/verdicts/1/ci_method").asText()).startsWith("batch means over 64 time bins");
        assertThat(json.at("/verdicts/1/effective_samples").asDouble()).isBetween(1.0, 5.0);
        assertThat(json.at("/run_length/until_decided").asBoolean()).isFalse();
        assertThat(json.at("/verdicts/0/measured").asDouble()).isCloseTo(185.0, within(1e-9));
        assertThat(json.at("/tokens/token_count_source/usage").asLong()).isEqualTo(4);
        assertThat(json.at("/client_health/trustworthy").asBoolean()).isTrue();

        JsonNode vllm = json.get("vllm");
        assertThat(vllm.get("completed").asLong()).isEqualTo(4);
        assertThat(vllm.get("failed").asLong()).isEqualTo(1);
        assertThat(vllm.get("request_throughput").asDouble()).isCloseTo(4.0, within(1e-9));
        assertThat(vllm.get("request_goodput").asDouble()).isCloseTo(3.0, within(1e-9));
        // TTFT from send: 100, 140, 200, 50 ms.
        assertThat(vllm.get("mean_ttft_ms").asDouble()).isCloseTo(122.5, within(1e-9));
        assertThat(vllm.get("median_ttft_ms").asDouble()).isCloseTo(120.0, within(1e-9));
        assertThat(vllm.has("p99_ttft_ms")).isTrue();
        assertThat(vllm.has("std_itl_ms")).isTrue();
        // E2EL from send: 300, 340, 200, 450 ms.
        assertThat(vllm.get("mean_e2el_ms").asDouble()).isCloseTo(322.5, within(1e-9));
        assertThat(vllm.get("mean_tpot_ms").asDouble()).isCloseTo(200.0 / 3, within(1e-9));
    }

    @Test
    void should_write_one_csv_row_per_request_relative_to_the_first_intended_start() throws Exception {
        StringWriter out = new StringWriter();
        CsvReport.write(RESULT, out);
        String[] lines = out.toString().split("\n");

        assertThat(lines).hasSize(1 + 7);
        assertThat(lines[0]).isEqualTo(CsvReport.HEADER);
        // The warm-up request is the earliest (-500 ms), so it is the origin.
        assertThat(lines[1]).startsWith("0,WARMUP,SUCCESS,200,0.000,0.000,1.000,1000.000,1100.000,1100.000,1000.000,");
        assertThat(lines[6]).startsWith("5,MEASURED,FAILED,500,900.000,900.000,,,,1500.000,,,0.000,,,,false,0,0,NONE");
        // No server timings; no phase instants, TTFO or answer TPOT, no reasoning or tool calls; no workload class.
        assertThat(lines[6]).endsWith(",HTTP 500,1,,0,,,,,,,,,,,,,0,0,0,NONE,0,");
        assertThat(lines[0].split(",")).hasSize(lines[2].split(",", -1).length);
    }

    @Test
    void should_print_a_console_summary_with_counts_latencies_goodput_and_every_verdict() {
        String text = ConsoleReport.format(RESULT);

        assertThat(text)
                .startsWith("Goodput run: constant 5.0 req/s, 7 requests against http://127.0.0.1:1 (model m)\n")
                .contains("requests: 7 scheduled, 6 succeeded, 1 failed, 0 timed out, 0 cancelled (5 measured)\n"
                        + "why 1 request did not succeed (warm-up and cool-down included):\n"
                        + "  1 x HTTP 500\n"
                        + "load: offered 5.00 req/s, achieved 10.00 req/s, window 1.00 s, peak in flight 3\n")
                .contains("goodput: 3.00 req/s (3 good requests, SLO attainment 60.00 %, error rate 20.00 %)")
                .contains("p90 TTFT: measured 185.00 ms")
                .contains("goodput: measured 3.00 req/s (95% CI 0.00 req/s .. ")
                .contains("bound ≥ 1.50 req/s: INCONCLUSIVE (the 95% CI straddles the bound)");
        assertThat(text.lines()
                        .filter(line -> line.startsWith("TTFT "))
                        .findFirst()
                        .orElseThrow())
                .contains("125.00");
    }

    @Test
    void should_list_at_most_five_reasons_in_the_console_summary_and_say_how_many_more_there_are() {
        List<RequestRecord> records = new ArrayList<>(SampleResults.RECORDS);
        for (int i = 0; i < 6; i++) {
            records.add(SampleResults.failure(
                    7 + i, Phase.COOLDOWN, 1200, 1300, Outcome.FAILED, 503, "HTTP 503: overloaded, try " + i));
        }
        records.add(SampleResults.failure(
                13, Phase.COOLDOWN, 1200, 1300, Outcome.TIMED_OUT, 0, "no response headers within 400 ms of sending"));

        String text = ConsoleReport.format(SampleResults.compute(records, List.of()));

        assertThat(text)
                .contains("requests: 14 scheduled, 6 succeeded, 7 failed, 1 timed out, 0 cancelled (5 measured)\n"
                        + "why 8 requests did not succeed (warm-up and cool-down included):\n"
                        + "  1 x HTTP 500\n"
                        + "  1 x HTTP 503: overloaded, try 0\n"
                        + "  1 x HTTP 503: overloaded, try 1\n"
                        + "  1 x HTTP 503: overloaded, try 2\n"
                        + "  1 x HTTP 503: overloaded, try 3\n"
                        + "  ... and 3 more reasons (3 requests); every request's reason is in requests.csv\n"
                        + "load: ");
    }

    @Test
    void should_show_the_engines_own_timings_beside_the_clients_when_the_server_reported_them() throws Exception {
        List<RequestRecord> records = new ArrayList<>();
        for (RequestRecord record : SampleResults.RECORDS) {
            // Measured successes get the engine's prompt time 10, 20, 30... ms and 4 ms per token.
            ServerTimings timings = record.isSuccess() && record.phase() == Phase.MEASURED
                    ? new ServerTimings(0, 8, 10.0 * (records.size() + 1), record.outputTokens(), 40.0, 4.0)
                    : null;
            records.add(new RequestRecord(
                    record.index(),
                    record.phase(),
                    record.intendedNanos(),
                    record.dispatchedNanos(),
                    record.headersNanos(),
                    record.firstTokenNanos(),
                    record.lastTokenNanos(),
                    record.endNanos(),
                    record.heldByConcurrencyCap(),
                    record.httpStatus(),
                    record.contentEvents(),
                    record.outputTokens(),
                    record.outputTokenSource(),
                    record.clientOutputTokens(),
                    record.serverPromptTokens(),
                    record.clientPromptTokens(),
                    record.maxStallNanos(),
                    record.finishReason(),
                    record.outcome(),
                    record.errorDetail(),
                    record.retriedAttempts(),
                    0,
                    timings,
                    StreamPhases.NONE));
        }
        RunResult result = SampleResults.compute(records, List.of());
        long timed = records.stream().filter(r -> r.serverTimings() != null).count();

        assertThat(timed).isPositive();
        assertThat(ConsoleReport.format(result))
                .containsPattern("engine's own timings \\(" + timed + " requests\\): prompt p50 [0-9.]+ ms, p99 [0-9.]+"
                        + " ms \\(client TTFT from send p50 [0-9.]+ ms\\); per token p50 4.00 ms, p99 4.00 ms"
                        + " \\(client TPOT p50 [0-9.]+ ms\\)");
        JsonNode engine = new ObjectMapper().readTree(JsonReport.toJson(result)).path("engine_timings");
        assertThat(engine.path("requests").asLong()).isEqualTo(timed);
        assertThat(engine.path("ms_per_token_p50").asDouble()).isEqualTo(4.0);
        assertThat(ConsoleReport.format(SampleResults.compute(SampleResults.RECORDS, List.of())))
                .as("no line without the engine's timings")
                .doesNotContain("engine's own timings");
    }

    @Test
    void should_say_nothing_about_failures_when_every_request_succeeded() {
        List<RequestRecord> successes =
                SampleResults.RECORDS.stream().filter(RequestRecord::isSuccess).toList();

        assertThat(ConsoleReport.format(SampleResults.compute(successes, List.of())))
                .doesNotContain("did not succeed");
        assertThat(HtmlReport.format(SampleResults.compute(successes, List.of()), "all good"))
                .contains("<h2 id=\"failures\">Failures</h2><p class=\"note\">Every request succeeded.</p>");
    }

    @Test
    void should_write_the_failures_by_outcome_and_by_reason_with_example_indices_into_the_json() throws Exception {
        JsonNode json = new ObjectMapper().readTree(JsonReport.toJson(RESULT));

        assertThat(json.get("failures").toString())
                .isEqualTo("{\"requests\":1,\"includes_warmup_and_cooldown\":true,"
                        + "\"by_outcome\":{\"failed\":1,\"timed_out\":0,\"cancelled\":0},\"distinct_reasons\":1,"
                        + "\"reasons\":[{\"outcome\":\"failed\",\"reason\":\"HTTP 500\",\"count\":1,"
                        + "\"example_indices\":[5]}]}");
        // The block is new; the keys before it stay.
        assertThat(json.at("/accounting/by_outcome/failed").asLong()).isEqualTo(1);
    }

    @Test
    void should_show_the_failures_with_example_requests_on_the_run_page() {
        String page = HtmlReport.format(RESULT, "sample");

        assertThat(page)
                .contains(
                        "<h2 id=\"failures\">Failures</h2><p class=\"note\">1 of 7 requests did not succeed (1 failed,"
                                + " 0 timed out, 0 cancelled), warm-up and cool-down included. Every request&#39;s reason is in"
                                + " requests.csv, column error.</p><table><tr><th>requests</th><th>outcome</th><th>reason</th>"
                                + "<th>example requests</th></tr><tr><td>1</td><td>failed</td><td><div class=\"reason\">HTTP"
                                + " 500</div></td><td>5</td></tr></table><h3>Example requests</h3><table><tr><th>request</th>"
                                + "<th>phase</th><th>outcome</th><th>HTTP status</th><th>reason</th></tr><tr><td>5</td>"
                                + "<td>measured</td><td>failed</td><td>500</td><td><div class=\"reason\">HTTP 500</div></td>"
                                + "</tr></table>");
    }

    @Test
    void should_escape_a_reason_from_the_server_on_the_run_page_and_the_index(@TempDir Path reports)
            throws IOException {
        String script = "HTTP 500: <script>alert('owned')</script>";
        List<RequestRecord> records = new ArrayList<>(SampleResults.RECORDS);
        records.add(SampleResults.failure(7, Phase.COOLDOWN, 1200, 1300, Outcome.FAILED, 500, script));
        records.add(SampleResults.failure(8, Phase.COOLDOWN, 1200, 1300, Outcome.FAILED, 500, script));
        RunResult result = SampleResults.compute(records, List.of());
        String escaped = "HTTP 500: &lt;script&gt;alert(&#39;owned&#39;)&lt;/script&gt;";

        Reports.writeAll(result, reports.resolve("Hostile").resolve("gate"), "<b>hostile</b> gate");
        String page =
                Files.readString(reports.resolve("Hostile").resolve("gate").resolve(Reports.HTML_FILE));
        String index = Files.readString(ReportIndex.write(reports));

        assertThat(page)
                .doesNotContain("<script>alert", "<b>hostile")
                .contains("<meta name=\"goodput-top-failure\" content=\"2 x " + escaped + "\">")
                .contains("<tr><td>2</td><td>failed</td><td><div class=\"reason\">" + escaped + "</div></td>"
                        + "<td>7, 8</td></tr>")
                .contains("<tr><td>7</td><td>cooldown</td><td>failed</td><td>500</td><td><div class=\"reason\">"
                        + escaped + "</div></td></tr>");
        assertThat(index)
                .doesNotContain("<script>alert", "<b>hostile")
                .contains("<a href=\"Hostile/gate/report.html\">&lt;b&gt;hostile&lt;/b&gt; gate</a>")
                .contains("<td><div class=\"reason\">2 x " + escaped + "</div></td>");
    }

    @Test
    void should_list_every_run_with_its_key_figures_and_top_failure_reason_on_the_index(@TempDir Path reports) {
        Reports.writeAll(RESULT, reports.resolve("Sample").resolve("gate"), "Sample.gate()");

        assertThat(ReportIndex.write(reports))
                .content()
                .contains("<tr><th>test</th><th>verdict</th><th>kind</th><th>requests</th><th>goodput</th>"
                        + "<th>p99 TTFT</th><th>error rate</th><th>vs baseline</th><th>why not passed</th>"
                        + "<th>top failure reason</th></tr>"
                        + "<tr><td><a href=\"Sample/gate/report.html\">Sample.gate()</a></td>"
                        + "<td><span class=\"FAILED\">FAILED</span></td><td>run</td><td>7</td><td>3.00 req/s</td>"
                        + "<td>198.50 ms</td><td>20.00 %</td><td></td><td><div class=\"reason\">p90 TTFT INCONCLUSIVE (n=4 is too few for a 95% upper bound"
                        + " on p90; need at least 36); goodput INCONCLUSIVE (the 95% CI straddles the bound)</div></td>"
                        + "<td><div class=\"reason\">1 x HTTP 500</div></td></tr>");
    }

    @Test
    void should_hand_out_the_rows_the_index_lists(@TempDir Path reports) {
        Reports.writeAll(RESULT, reports.resolve("Sample").resolve("gate"), "Sample.gate()");

        assertThat(ReportIndex.entries(reports)).singleElement().satisfies(entry -> {
            assertThat(entry.link()).isEqualTo("Sample/gate/report.html");
            assertThat(entry.page()).isEqualTo(reports.resolve("Sample/gate/report.html"));
            assertThat(List.of(
                            entry.test(),
                            entry.verdict(),
                            entry.kind(),
                            entry.requests(),
                            entry.goodput(),
                            entry.ttftP99(),
                            entry.errorRate(),
                            entry.topFailure()))
                    .containsExactly(
                            "Sample.gate()",
                            "FAILED",
                            "run",
                            "7",
                            "3.00 req/s",
                            "198.50 ms",
                            "20.00 %",
                            "1 x HTTP 500");
        });
        assertThat(ReportIndex.entries(reports.resolve("absent"))).isEmpty();
    }
}
