package dev.goodput.core.internal.driver;

import dev.goodput.core.Load;
import dev.goodput.core.TokenCounter;
import dev.goodput.core.WorkloadSpec;

/**
 * What a driver needs besides its scheduler and transport.
 *
 * @param workload what to send
 * @param profile how hard and how long (already validated)
 * @param requireStreamEnd whether a success needs {@code [DONE]} and a finish reason
 * @param outputTokenCounter a client tokenizer for generated text, or {@code null}
 */
public record RunOptions(
        WorkloadSpec workload, Load profile, boolean requireStreamEnd, TokenCounter outputTokenCounter) {}
