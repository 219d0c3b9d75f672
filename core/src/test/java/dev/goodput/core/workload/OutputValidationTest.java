package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.transport.internal.FinishedRequest;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutputValidationTest {

    @Test
    void should_report_every_ignore_eos_request_at_full_length_against_a_server_that_honours_it() throws Exception {
        PerformanceModel model = PerformanceModel.fixed(Duration.ofMillis(2), Duration.ofMillis(1));
        try (MockServer server = MockServer.start(MockServerConfig.defaults().withPerformanceModel(model))) {
            RandomWorkload workload = RandomWorkload.builder()
                    .inputTokens(LengthDistribution.uniform(30, 0.5))
                    .outputTokens(LengthDistribution.empirical(Map.of(5, 1, 9, 1)))
                    .shape(new RequestShape(ApiKind.COMPLETIONS, true, 0, Map.of()))
                    .build();
            RunResult result = Goodput.run(
                    ServerEndpoint.of(server.baseUrl(), server.modelName()),
                    workload,
                    Load.concurrency(2).requests(10));
            assertThat(result.tokens().ignoreEosRequests()).isEqualTo(10);
            assertThat(result.tokens().shorterThanAsked()).isZero();
            assertThat(result.tokens().finishReasons()).containsExactly(Map.entry("length", 10L));
            assertThat(result.tokens().prompt().differing()).isZero();
        }
    }

    @Test
    void should_count_an_ignore_eos_request_that_stopped_before_max_tokens_as_shorter_than_asked() {
        RunRecorder recorder = new RunRecorder(SecretRedaction.none());
        RequestSpec asked = RequestSpec.completion("a b c", 10).withIgnoreEos(true);
        recorder.record(finished(0, asked, success(0, 10)));
        recorder.record(finished(1, asked, success(1, 7)));
        recorder.record(finished(2, RequestSpec.completion("a b c", 10).withIgnoreEos(false), success(2, 3)));
        RunSnapshot check = recorder.snapshot();
        assertThat(check.ignoreEosRequests()).isEqualTo(2);
        assertThat(check.shorterThanAsked()).isEqualTo(1);
    }

    private static FinishedRequest finished(long index, RequestSpec spec, RequestRecord record) {
        return new FinishedRequest(
                record, Boolean.TRUE.equals(spec.ignoreEos()), spec.maxTokens(), new long[0], new int[0], 0);
    }

    private static RequestRecord success(long index, int outputTokens) {
        return new RequestRecord(
                index,
                Phase.MEASURED,
                0,
                1,
                2,
                3,
                4,
                5,
                false,
                200,
                outputTokens,
                outputTokens,
                TokenCountSource.USAGE,
                -1,
                3,
                3,
                1,
                "stop",
                Outcome.SUCCESS,
                null,
                List.of(),
                0,
                null,
                StreamPhases.NONE);
    }
}
