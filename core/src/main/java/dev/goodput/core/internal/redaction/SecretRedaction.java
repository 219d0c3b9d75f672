package dev.goodput.core.internal.redaction;

import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where a text that came from a server, a URL or a user's file is made safe to show: every error
 * body, event, metrics page, preflight answer, dataset line and URL passes it before it is cut, quoted in a parse
 * message or formatted, so that no path writes such text without it. It removes the API key the run sends
 * (whole, and any piece of 4 or more characters that a cut left at either edge of a text), and what looks like a
 * secret even without a known key: a bearer token, an {@code sk-} key, a secret-looking value in a URL's query,
 * a URL's user information.
 *
 * <p>It knows no public type of the core (which uses it): a run's redaction is {@code
 * SecretRedaction.of(server.resolveApiKey().orElse(null))}.
 *
 * <p>Cuts go through {@link #cut(String, TextCut)} only, which redacts first: a cut through the key would otherwise
 * leave its first characters behind, where no search for the whole key finds them. Every cut length is a {@link
 * TextCut}.
 */
public final class SecretRedaction {

    /** What stands in the place of the key. */
    public static final String REDACTED = "[redacted API key]";

    /** What stands in the place of something that looks like a secret. */
    public static final String REDACTED_SECRET = "[redacted]";

    /** The shortest piece of the key that a cut's edge may not keep. */
    public static final int SHORTEST_PIECE = 4;

    private static final SecretRedaction NONE = new SecretRedaction(null);

    /** A bearer token, a key shaped like OpenAI's, a secret-looking query parameter; never the markers above. */
    private static final Pattern LIKELY_SECRET =
            Pattern.compile("(?i)(\\bBearer\\s+)(?!\\[redacted)[A-Za-z0-9._~+/=-]{8,}"
                    + "|()\\bsk-[A-Za-z0-9_-]{12,}"
                    + "|([?&;][a-z0-9_.-]*(?:key|token|secret|password|passwd|pwd|auth|authorization|signature|sig|credentials?)"
                    + "=)(?!\\[redacted)[^&#\\s\"']+");

    private final String secret;

    private SecretRedaction(String secret) {
        this.secret = secret;
    }

    /** Returns a redaction that knows no key: it removes only what looks like a secret. */
    public static SecretRedaction none() {
        return NONE;
    }

    /** Returns the redaction of {@code secret}; a blank secret is no key. */
    public static SecretRedaction of(String secret) {
        return secret == null || secret.isBlank() ? NONE : new SecretRedaction(secret);
    }

    /** Returns how many characters the key has, 0 without one. */
    public int secretLength() {
        return secret == null ? 0 : secret.length();
    }

    /**
     * Returns {@code text} with every occurrence of the key, a piece of it at either edge (the text may be the head
     * or the tail of a longer one) and what looks like a secret replaced; {@code null} stays {@code null}.
     */
    public String redact(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String redacted = text;
        if (secret != null) {
            redacted = withoutEdgePieces(redacted.replace(secret, REDACTED));
        }
        return withoutLikelySecrets(redacted);
    }

    /**
     * Returns {@code text} redacted, then cut as {@code cut} says, its marker added when it was cut; the kept head is
     * redacted again at its new edge. The only way Goodput shortens a text that may carry a secret.
     */
    public String cut(String text, TextCut cut) {
        return cut(text, cut, cut.chars());
    }

    /** Cuts as {@link #cut(String, TextCut)} does, at {@code chars} characters rather than the cut's own length. */
    public String cut(String text, TextCut cut, int chars) {
        String redacted = redact(text);
        if (redacted == null || redacted.length() <= chars) {
            return redacted;
        }
        int keep = Math.max(0, chars - cut.marker().charsWithin());
        if (keep > 0 && Character.isHighSurrogate(redacted.charAt(keep - 1))) {
            keep--;
        }
        String head = redact(redacted.substring(0, keep));
        return head + cut.marker().after(redacted.length());
    }

    /**
     * Returns how a URL may be shown: its user information replaced, each query value that looks like a secret (by
     * its name, by its shape, or being the key) replaced, the rest as given.
     */
    public String url(URI uri) {
        String userInfo = uri.getRawUserInfo() == null ? "" : REDACTED_SECRET + "@";
        String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        StringBuilder shown = new StringBuilder()
                .append(uri.getScheme())
                .append("://")
                .append(userInfo)
                .append(uri.getHost())
                .append(port)
                .append(path);
        if (uri.getRawQuery() != null) {
            String separator = "?";
            for (String parameter : uri.getRawQuery().split("&", -1)) {
                int equals = parameter.indexOf('=');
                String name = equals < 0 ? parameter : parameter.substring(0, equals);
                String value = equals < 0 ? null : parameter.substring(equals + 1);
                shown.append(separator).append(name);
                if (value != null) {
                    shown.append('=').append(looksSecret(name, value) ? REDACTED_SECRET : value);
                }
                separator = "&";
            }
        }
        return redact(shown.toString());
    }

    /** Returns how a URL may be shown, as {@link #url(URI)} does, without a known key. */
    public static String shownUrl(URI uri) {
        return NONE.url(uri);
    }

    private boolean looksSecret(String name, String value) {
        String probe = "?" + name + "=" + value;
        return LIKELY_SECRET.matcher(probe).find()
                || (secret != null && value.contains(secret))
                || value.length() >= 16
                        && value.chars().anyMatch(Character::isDigit)
                        && value.chars().anyMatch(Character::isLetter);
    }

    /** Replaces the longest piece of the key that {@code text} ends with or starts with, if long enough. */
    private String withoutEdgePieces(String text) {
        String redacted = text;
        int tail = longestKeyPrefixAtEnd(redacted);
        if (tail >= SHORTEST_PIECE) {
            redacted = redacted.substring(0, redacted.length() - tail) + REDACTED;
        }
        int head = longestKeySuffixAtStart(redacted);
        if (head >= SHORTEST_PIECE) {
            redacted = REDACTED + redacted.substring(head);
        }
        return redacted;
    }

    private int longestKeyPrefixAtEnd(String text) {
        for (int length = Math.min(secret.length() - 1, text.length()); length > 0; length--) {
            if (text.regionMatches(text.length() - length, secret, 0, length)) {
                return length;
            }
        }
        return 0;
    }

    private int longestKeySuffixAtStart(String text) {
        for (int length = Math.min(secret.length() - 1, text.length()); length > 0; length--) {
            if (text.regionMatches(0, secret, secret.length() - length, length)) {
                return length;
            }
        }
        return 0;
    }

    private static String withoutLikelySecrets(String text) {
        Matcher matcher = LIKELY_SECRET.matcher(text);
        if (!matcher.find()) {
            return text;
        }
        StringBuilder redacted = new StringBuilder();
        do {
            String kept =
                    matcher.group(1) != null ? matcher.group(1) : matcher.group(3) != null ? matcher.group(3) : "";
            matcher.appendReplacement(redacted, Matcher.quoteReplacement(kept + REDACTED_SECRET));
        } while (matcher.find());
        matcher.appendTail(redacted);
        return redacted.toString();
    }
}
