package dev.goodput.core.internal.driver;

import dev.goodput.core.RequestAttempt;
import dev.goodput.core.RequestRecord;
import dev.goodput.core.ServerEndpoint;
import java.util.List;
import java.util.Optional;

/**
 * Removes the API key from the reasons of failed requests before they reach the result and every report. A
 * misbehaving server or proxy may echo the {@code Authorization} header in its error body ("invalid key
 * sk-..."), and that body becomes the request's reason; the key must not travel on into JSON, CSV, the
 * console or a test failure message.
 */
final class SecretRedaction {

    static final String REDACTED = "[redacted API key]";

    private SecretRedaction() {}

    static List<RequestRecord> redact(List<RequestRecord> records, ServerEndpoint server) {
        Optional<String> key = server.apiKeyVariable().isPresent() ? server.resolveApiKey() : Optional.empty();
        if (key.isEmpty() || key.get().isBlank()) {
            return records;
        }
        String secret = key.get();
        if (records.stream()
                .noneMatch(r -> r.errorDetail() != null && r.errorDetail().contains(secret))) {
            return records;
        }
        return records.stream().map(r -> redact(r, secret)).toList();
    }

    private static RequestRecord redact(RequestRecord r, String secret) {
        boolean inAttempts =
                r.retriedAttempts().stream().anyMatch(a -> a.reason().contains(secret));
        if ((r.errorDetail() == null || !r.errorDetail().contains(secret)) && !inAttempts) {
            return r;
        }
        return new RequestRecord(
                r.index(),
                r.phase(),
                r.intendedNanos(),
                r.dispatchedNanos(),
                r.headersNanos(),
                r.firstTokenNanos(),
                r.lastTokenNanos(),
                r.endNanos(),
                r.heldByConcurrencyCap(),
                r.httpStatus(),
                r.contentEvents(),
                r.outputTokens(),
                r.outputTokenSource(),
                r.clientOutputTokens(),
                r.serverPromptTokens(),
                r.clientPromptTokens(),
                r.maxStallNanos(),
                r.finishReason(),
                r.outcome(),
                r.errorDetail() == null ? null : r.errorDetail().replace(secret, REDACTED),
                r.retriedAttempts().stream()
                        .map(a -> new RequestAttempt(
                                a.number(),
                                a.dispatchedNanos(),
                                a.endNanos(),
                                a.httpStatus(),
                                a.reason().replace(secret, REDACTED),
                                a.waitNanos()))
                        .toList());
    }
}
