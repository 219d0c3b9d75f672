package dev.goodput.core.run.internal;

import dev.goodput.core.RunSpec;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.load.Load;
import dev.goodput.core.load.Shard;
import dev.goodput.core.workload.TokenCounter;
import dev.goodput.core.workload.WorkloadSpec;

/**
 * What a driver needs besides its scheduler, transport and recorder.
 *
 * @param workload what to send
 * @param profile how hard and how long (already validated)
 * @param requireStreamEnd whether a success needs {@code [DONE]} and a finish reason
 * @param outputTokenCounter a client tokenizer for generated text, or {@code null}
 * @param redaction removes the API key from error bodies before they are cut
 * @param shard the share of the schedule this generator sends ({@link Shard#WHOLE} for all of it)
 * @param stopWhenServerGone whether the driver stops the run once {@link RunSpec#SERVER_GONE_AFTER} requests in a
 *     row found no server to connect to
 */
public record RunOptions(
        WorkloadSpec workload,
        Load profile,
        boolean requireStreamEnd,
        TokenCounter outputTokenCounter,
        SecretRedaction redaction,
        Shard shard,
        boolean stopWhenServerGone) {}
