package dev.goodput.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.Metric;
import dev.goodput.core.Objective;
import dev.goodput.core.RunResult;
import dev.goodput.core.testing.SampleResults;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportsTest {

    private static final RunResult RESULT = SampleResults.compute(List.of(
            Objective.of(Metric.TTFT).percentile(90).atMost(Duration.ofMillis(180)),
            Objective.of(Metric.GOODPUT).atLeast(1.5)));

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
        assertThat(json.at("/verdicts/1/verdict").asText()).isEqualTo("MET");
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
        assertThat(lines[6]).endsWith(",HTTP 500,1,");
        assertThat(lines[0].split(",")).hasSize(lines[2].split(",", -1).length);
    }

    @Test
    void should_print_a_console_summary_with_counts_latencies_goodput_and_every_verdict() {
        String text = ConsoleReport.format(RESULT);

        assertThat(text)
                .startsWith("Goodput run: constant 5.0 req/s, 7 requests against http://127.0.0.1:1 (model m)\n")
                .contains("requests: 7 scheduled, 6 succeeded, 1 failed, 0 timed out, 0 cancelled (5 measured)")
                .contains("load: offered 5.00 req/s, achieved 10.00 req/s, window 1.00 s, peak in flight 4")
                .contains("goodput: 3.00 req/s (3 good requests, SLO attainment 60.00 %, error rate 20.00 %)")
                .contains("p90 TTFT: measured 185.00 ms")
                .contains("goodput: measured 3.00 req/s (n=5), bound ≥ 1.50 req/s: MET");
        assertThat(text.lines()
                        .filter(line -> line.startsWith("TTFT "))
                        .findFirst()
                        .orElseThrow())
                .contains("125.00");
    }
}
