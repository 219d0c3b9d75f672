package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceReplayTest {

    private static final long MS = 1_000_000;

    static Path resource(String name) {
        try {
            return Path.of(
                    TraceReplayTest.class.getResource("/workload/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void should_read_mooncake_offsets_lengths_and_hash_ids() {
        List<TraceRequest> requests = Trace.mooncake(resource("mooncake.jsonl")).requests();
        assertThat(requests).extracting(TraceRequest::offsetNanos).containsExactly(0L, 40 * MS, 95 * MS, 150_500_000L);
        assertThat(requests).extracting(TraceRequest::inputTokens).containsExactly(700, 900, 300, 520);
        assertThat(requests).extracting(TraceRequest::outputTokens).containsExactly(3, 4, 2, 5);
        assertThat(requests.get(1).hashIds()).containsExactly(11L, 13L);
    }

    @Test
    void should_read_azure_wall_clock_times_as_offsets_from_the_first() {
        List<TraceRequest> requests = Trace.azure(resource("azure.csv")).requests();
        assertThat(requests)
                .extracting(TraceRequest::offsetNanos)
                .containsExactly(0L, 19_410_000L, 150 * MS, 219_410_000L);
        assertThat(requests).extracting(TraceRequest::inputTokens).containsExactly(374, 120, 1024, 57);
    }

    @Test
    void should_read_burstgpt_and_skip_requests_that_returned_no_tokens() {
        List<TraceRequest> requests = Trace.burstGpt(resource("burstgpt.csv")).requests();
        assertThat(requests).extracting(TraceRequest::offsetNanos).containsExactly(0L, 60 * MS, 250 * MS);
        assertThat(requests).extracting(TraceRequest::outputTokens).containsExactly(3, 2, 4);
    }

    @Test
    void should_share_prompt_blocks_exactly_where_mooncake_hash_ids_are_equal() {
        TraceWorkload workload = Trace.mooncake(resource("mooncake.jsonl")).workload();
        List<String> first = words(workload, 0);
        assertThat(words(workload, 1).subList(0, 512)).isEqualTo(first.subList(0, 512));
        assertThat(words(workload, 1).subList(512, 700)).isNotEqualTo(first.subList(512, 700));
        assertThat(words(workload, 3)).isEqualTo(first.subList(0, 520));
        assertThat(words(workload, 2).get(0)).isNotEqualTo(first.get(0));
    }

    private static List<String> words(TraceWorkload workload, long index) {
        String text = workload.request(index).messages().get(0).content();
        return List.of(text.split(" "));
    }

    @Test
    void should_scale_time_and_rate() {
        Trace trace = Trace.burstGpt(resource("burstgpt.csv"));
        assertThat(trace.timeScaled(2).requests().get(2).offsetNanos()).isEqualTo(500 * MS);
        assertThat(trace.atRate(20).meanRate()).isCloseTo(20.0, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void should_name_the_file_line_and_field_of_a_malformed_trace() {
        assertThatThrownBy(() -> Trace.mooncake(resource("bad-mooncake.jsonl")))
                .isInstanceOf(WorkloadFileException.class)
                .hasMessageEndingWith(
                        "bad-mooncake.jsonl:2: input_length must be an integer of at least 1, was \"many\"");
        assertThatThrownBy(() -> Trace.azure(Path.of("no/such/trace.csv")))
                .hasMessage("no/such/trace.csv: no such file");
    }

    @Test
    void should_start_every_request_at_its_trace_offset_with_its_lengths() throws Exception {
        Trace trace = Trace.mooncake(resource("mooncake.jsonl"));
        TraceWorkload workload = TraceWorkload.builder(trace)
                .shape(new RequestShape(ApiKind.COMPLETIONS, true, 0, Map.of()))
                .build();
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(5), Duration.ofMillis(2))))) {
            RunResult result =
                    Goodput.run(ServerEndpoint.of(server.baseUrl(), server.modelName()), workload, trace.load());
            assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(4);
            List<RequestRecord> records = result.records();
            long start = records.get(0).intendedNanos();
            for (int i = 0; i < 4; i++) {
                TraceRequest expected = trace.requests().get(i);
                RequestRecord record = records.get(i);
                assertThat(record.intendedNanos() - start).isEqualTo(expected.offsetNanos());
                assertThat(record.serverPromptTokens()).isEqualTo(expected.inputTokens());
                assertThat(record.clientPromptTokens()).isEqualTo(expected.inputTokens());
                assertThat(record.outputTokens()).isEqualTo(expected.outputTokens());
            }
            assertThat(result.spec().load().describe()).containsEntry("arrivals", "TRACE");
        }
    }
}
