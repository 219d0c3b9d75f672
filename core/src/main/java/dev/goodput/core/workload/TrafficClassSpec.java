package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.apiguardian.api.API;

/**
 * One class of traffic in a {@link WorkloadMix}: a name that results and objectives refer to, a weight (its
 * share of the requests), the workload that shapes its requests, and optionally a scheduling priority and HTTP
 * headers sent with each of its requests.
 *
 * <pre>{@code
 * TrafficClassSpec.of("chat", 70, chat).withPriority(0).withHeader("x-tenant", "support");
 * }</pre>
 *
 * @param name the class's name: letters, digits, {@code _}, {@code -} and {@code .}, as it appears in reports and
 *     in {@code @Slo(trafficClass = ...)}
 * @param weight the class's share of the requests relative to the other classes' weights, above 0
 * @param workload what the class's requests send; not a session or trace workload
 * @param priority vLLM's {@code priority} body field (lower is served first under {@code --scheduling-policy
 *     priority}), or {@code null} to leave it out
 * @param headers HTTP headers sent with each of the class's requests, in the order given
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record TrafficClassSpec(
        String name, double weight, WorkloadSpec workload, Integer priority, Map<String, String> headers) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /**
     * Headers Goodput sets itself, or that the HTTP client manages: a class may not send them. {@code
     * Authorization} comes from the server endpoint's API key, which is never written anywhere.
     */
    private static final Set<String> RESERVED_HEADERS = Set.of(
            "authorization",
            "accept",
            "connection",
            "content-length",
            "content-type",
            "expect",
            "host",
            "transfer-encoding",
            "upgrade");

    public TrafficClassSpec {
        if (name == null || !NAME.matcher(name).matches()) {
            throw InvalidSettingException.of(
                    "workload class name",
                    name,
                    "must be 1 to 64 letters, digits, '_', '-' or '.' (it names the class in reports and objectives)");
        }
        if (!(weight > 0) || Double.isInfinite(weight)) {
            throw InvalidSettingException.of(
                    "weight of workload class " + name, weight, "must be a finite value above 0");
        }
        Objects.requireNonNull(workload, "workload of workload class " + name);
        if (workload instanceof WorkloadMix) {
            throw InvalidSettingException.of(
                    "workload of workload class " + name, "a WorkloadMix", "must be a single workload, not a mix");
        }
        // Sessions are recognised by their described type here, for a message that names the class at once; a
        // class may not know SessionWorkload itself (it knows results), so the spec's check catches any other.
        Object type = workload.describe().get("type");
        if (workload instanceof TimedWorkload || "conversation".equals(type) || "dataset_conversation".equals(type)) {
            throw InvalidSettingException.of(
                    "workload of workload class " + name,
                    workload.describe().getOrDefault("type", workload.getClass().getSimpleName()),
                    "cannot be mixed: sessions and traces set their own order and timing; mix single-request"
                            + " workloads (synthetic, random, dataset)");
        }
        Map<String, String> copy = new LinkedHashMap<>();
        if (headers != null) {
            headers.forEach((header, value) -> {
                checkHeader(name, header, value);
                copy.put(header, value);
            });
        }
        headers = java.util.Collections.unmodifiableMap(copy);
    }

    /** Returns a class with the given name, weight and workload, no priority and no headers. */
    public static TrafficClassSpec of(String name, double weight, WorkloadSpec workload) {
        return new TrafficClassSpec(name, weight, workload, null, Map.of());
    }

    /** Returns a copy that sends {@code "priority": value} in each request's body. */
    public TrafficClassSpec withPriority(int value) {
        return new TrafficClassSpec(name, weight, workload, value, headers);
    }

    /** Returns a copy that also sends the given header with each request, replacing one of the same name. */
    public TrafficClassSpec withHeader(String header, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(header, value);
        return new TrafficClassSpec(name, weight, workload, priority, more);
    }

    /** Describes the class for the run's recorded configuration; header values are left out (they may be secret). */
    Map<String, Object> describe(double share) {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("name", name);
        description.put("weight", weight);
        description.put("share", share);
        if (priority != null) {
            description.put("priority", priority);
        }
        if (!headers.isEmpty()) {
            description.put("headers", java.util.List.copyOf(headers.keySet()));
        }
        description.put("workload", workload.describe());
        return description;
    }

    private static void checkHeader(String className, String header, String value) {
        String field = "header of workload class " + className;
        if (header == null || !HEADER_NAME.matcher(header).matches()) {
            throw InvalidSettingException.of(field, header, "must be an HTTP header name (RFC 9110 token)");
        }
        if (RESERVED_HEADERS.contains(header.toLowerCase(Locale.ROOT))) {
            throw InvalidSettingException.of(
                    field, header, "is set by Goodput or its HTTP client; choose another header");
        }
        if (value == null || value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
            throw InvalidSettingException.of(
                    "value of header " + header + " of workload class " + className,
                    value == null ? "null" : "(a value with a line break or NUL)",
                    "must be text without line breaks");
        }
    }
}
