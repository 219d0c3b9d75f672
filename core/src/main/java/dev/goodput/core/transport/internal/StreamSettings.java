package dev.goodput.core.transport.internal;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.workload.TokenCounter;
import java.util.Objects;

/**
 * How every attempt of a run reads its stream.
 *
 * @param requireStreamEnd whether a success needs {@code [DONE]} and a finish reason
 * @param outputTokenCounter a client tokenizer for generated text, or {@code null}
 * @param redaction removes the API key from error bodies before they are cut
 */
public record StreamSettings(boolean requireStreamEnd, TokenCounter outputTokenCounter, SecretRedaction redaction) {

    public StreamSettings {
        Objects.requireNonNull(redaction, "redaction");
    }

    /** Returns settings with no tokenizer and no key to redact. */
    public static StreamSettings of(boolean requireStreamEnd) {
        return new StreamSettings(requireStreamEnd, null, SecretRedaction.none());
    }
}
