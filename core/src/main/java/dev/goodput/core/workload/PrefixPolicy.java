package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * How prompts share their beginnings, which decides what a server's prefix cache can reuse; recorded in the
 * result.
 *
 * <ul>
 *   <li>{@link #cold()}: every prompt starts with a unique salt (the request's position), so nothing is reused.
 *   <li>{@link #warm(int, int)}: request {@code i} starts with the shared prefix of group {@code i mod G}, P
 *       tokens long, followed by its own words.
 *   <li>{@link #mix(double, int, int)}: a seeded share of requests is warm, the rest cold.
 * </ul>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PrefixPolicy {

    private final double warmShare;
    private final int prefixTokens;
    private final int groups;

    private PrefixPolicy(double warmShare, int prefixTokens, int groups) {
        this.warmShare = warmShare;
        this.prefixTokens = prefixTokens;
        this.groups = groups;
    }

    /** Every prompt starts with a unique salt: nothing can be served from a prefix cache. */
    public static PrefixPolicy cold() {
        return new PrefixPolicy(0, 0, 0);
    }

    /** Every prompt starts with one of {@code groups} shared prefixes of {@code prefixTokens} tokens. */
    public static PrefixPolicy warm(int prefixTokens, int groups) {
        return mix(1.0, prefixTokens, groups);
    }

    /** A share {@code warmShare} (0 to 1) of prompts is warm as in {@link #warm(int, int)}; the rest is cold. */
    public static PrefixPolicy mix(double warmShare, int prefixTokens, int groups) {
        if (!(warmShare >= 0 && warmShare <= 1)) {
            throw InvalidSettingException.of("warmShare", warmShare, "must be between 0 and 1");
        }
        if (prefixTokens < 1) {
            throw InvalidSettingException.of("prefixTokens", prefixTokens, "must be at least 1");
        }
        if (groups < 1) {
            throw InvalidSettingException.of("groups", groups, "must be at least 1");
        }
        return new PrefixPolicy(warmShare, prefixTokens, groups);
    }

    /** Returns the share of warm requests: 0 for cold, 1 for warm. */
    public double warmShare() {
        return warmShare;
    }

    /** Returns the length of a shared prefix in tokens, 0 for cold. */
    public int prefixTokens() {
        return prefixTokens;
    }

    /** Returns the number of distinct shared prefixes, 0 for cold. */
    public int groups() {
        return groups;
    }

    /** Describes this policy for the run's recorded configuration. */
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", warmShare == 0 ? "cold" : warmShare == 1 ? "warm" : "mix");
        if (warmShare > 0) {
            description.put("warm_share", warmShare);
            description.put("prefix_tokens", prefixTokens);
            description.put("groups", groups);
        }
        return description;
    }

    @Override
    public String toString() {
        return describe().toString();
    }
}
