package dev.goodput.core.transport;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.transport.internal.RequestBodies;
import dev.goodput.core.workload.RequestSpec;
import org.apiguardian.api.API;

/** The body a transport sends for an attempt, the same for every transport. */
@API(status = EXPERIMENTAL, since = "0.2")
public final class RequestBody {

    private RequestBody() {}

    /**
     * Returns the JSON body of {@code attempt} to {@code endpoint}: the endpoint's model, the prompt or messages,
     * the sampling fields the request sets, its extra fields, and always {@code "stream": true} with
     * {@code stream_options.include_usage} (plus {@code continuous_usage_stats} when the endpoint asks for it).
     * Extra fields may override everything except {@code stream}, which a streaming measurement cannot do without.
     */
    public static byte[] streaming(StreamAttempt attempt, ServerEndpoint endpoint) {
        RequestSpec spec = attempt.spec();
        return RequestBodies.streamingBody(spec, endpoint.model(), endpoint.continuousUsageStats());
    }
}
