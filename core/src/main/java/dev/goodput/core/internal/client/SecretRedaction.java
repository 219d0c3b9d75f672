package dev.goodput.core.internal.client;

import dev.goodput.core.RequestAttempt;
import dev.goodput.core.RequestRecord;
import dev.goodput.core.ServerEndpoint;
import java.util.Optional;

/**
 * Removes the API key from the reasons of failed requests before they leave the client. A misbehaving server or
 * proxy may echo the {@code Authorization} header in its error body ("invalid key sk-..."), and that body becomes
 * the request's reason; the key must not travel on into JSON, CSV, the console or a test failure message.
 *
 * <p>Redaction runs on whole text, before any cut: a cut through the key would otherwise leave its first
 * characters behind, where no search for the whole key finds them.
 */
public final class SecretRedaction {

    /** What stands in the place of the key. */
    public static final String REDACTED = "[redacted API key]";

    private static final SecretRedaction NONE = new SecretRedaction(null);

    private final String secret;

    private SecretRedaction(String secret) {
        this.secret = secret;
    }

    /** Returns a redaction that changes nothing: the run sends no key. */
    public static SecretRedaction none() {
        return NONE;
    }

    /** Returns the redaction of the key {@code server} sends, if it sends one. */
    public static SecretRedaction of(ServerEndpoint server) {
        Optional<String> key = server.apiKeyVariable().isPresent() ? server.resolveApiKey() : Optional.empty();
        return key.map(SecretRedaction::of).orElse(NONE);
    }

    /** Returns the redaction of {@code secret}; a blank secret redacts nothing. */
    public static SecretRedaction of(String secret) {
        return secret == null || secret.isBlank() ? NONE : new SecretRedaction(secret);
    }

    /** Returns how many characters the key has, 0 without one. */
    public int secretLength() {
        return secret == null ? 0 : secret.length();
    }

    /** Returns {@code text} with every occurrence of the key replaced; {@code null} stays {@code null}. */
    public String redact(String text) {
        if (secret == null || text == null || !text.contains(secret)) {
            return text;
        }
        return text.replace(secret, REDACTED);
    }

    /**
     * Returns {@code text} redacted, then cut to {@code maxChars}. When {@code text} is itself the head of a longer
     * text ({@code alreadyCut}), an occurrence of the key that the earlier cut split leaves a prefix of the key at
     * its end; that prefix is dropped too. Read at least {@code maxChars + secretLength()} characters before the
     * earlier cut, so that every occurrence starting before {@code maxChars} is whole.
     */
    public String redactThenCut(String text, boolean alreadyCut, int maxChars) {
        String redacted = redact(text);
        if (alreadyCut && secret != null) {
            redacted = redacted.substring(0, redacted.length() - trailingKeyPrefix(redacted));
        }
        return redacted.length() > maxChars ? redacted.substring(0, maxChars) : redacted;
    }

    /** Returns the record with the key removed from its reason and from the reasons of its earlier attempts. */
    public RequestRecord redact(RequestRecord r) {
        if (secret == null || !mentionsSecret(r)) {
            return r;
        }
        return r.withReasons(
                redact(r.errorDetail()),
                r.retriedAttempts().stream()
                        .map(a -> new RequestAttempt(
                                a.number(),
                                a.dispatchedNanos(),
                                a.endNanos(),
                                a.httpStatus(),
                                redact(a.reason()),
                                a.waitNanos()))
                        .toList());
    }

    private boolean mentionsSecret(RequestRecord r) {
        return (r.errorDetail() != null && r.errorDetail().contains(secret))
                || r.retriedAttempts().stream().anyMatch(a -> a.reason().contains(secret));
    }

    /** Returns the length of the longest proper prefix of the key that {@code text} ends with. */
    private int trailingKeyPrefix(String text) {
        for (int length = Math.min(secret.length() - 1, text.length()); length > 0; length--) {
            if (text.regionMatches(text.length() - length, secret, 0, length)) {
                return length;
            }
        }
        return 0;
    }
}
