package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One request of a trace.
 *
 * @param offsetNanos when it starts, in nanoseconds after the trace's first request
 * @param inputTokens prompt length, at least 1
 * @param outputTokens output length, sent as {@code max_tokens}, at least 1
 * @param hashIds Mooncake's block hash ids (equal leading ids mean a shared prefix), empty when unknown
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TraceRequest(long offsetNanos, int inputTokens, int outputTokens, List<Long> hashIds) {

    public TraceRequest {
        if (offsetNanos < 0) {
            throw InvalidSettingException.of("offsetNanos", offsetNanos, "must be at least 0");
        }
        LengthDistribution.requireAtLeastOne("inputTokens", inputTokens);
        LengthDistribution.requireAtLeastOne("outputTokens", outputTokens);
        hashIds = List.copyOf(hashIds);
    }
}
