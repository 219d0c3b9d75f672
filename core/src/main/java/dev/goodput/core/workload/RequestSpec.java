package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * One request a workload asks for: what to send, not when. Immutable; change a copy with the {@code withX}
 * methods.
 *
 * <p>Goodput always streams and always asks for usage ({@code stream_options.include_usage}); those fields
 * are not part of a spec.
 *
 * @param api the endpoint
 * @param prompt the prompt for {@link ApiKind#COMPLETIONS}, else {@code null}
 * @param messages the messages for {@link ApiKind#CHAT}, else {@code null}
 * @param maxTokens {@code max_tokens}, at least 1
 * @param minTokens {@code min_tokens}, or {@code null} to leave it out
 * @param ignoreEos {@code ignore_eos}, or {@code null} to leave it out
 * @param temperature {@code temperature}, or {@code null} to leave it out
 * @param seed {@code seed}, or {@code null} to leave it out
 * @param extraBody further top-level body fields passed through as given (for example {@code top_k})
 * @param promptTokens the client's own count of prompt tokens, or -1 when unknown
 * @param headers further HTTP headers sent with the request (a {@link
 *     dev.goodput.core.workload.TrafficClassSpec}'s), in order; never {@code Authorization}, which comes from the
 *     endpoint's API key
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RequestSpec(
        ApiKind api,
        String prompt,
        List<ChatMessage> messages,
        int maxTokens,
        Integer minTokens,
        Boolean ignoreEos,
        Double temperature,
        Long seed,
        Map<String, Object> extraBody,
        int promptTokens,
        Map<String, String> headers) {

    public RequestSpec {
        Objects.requireNonNull(api, "api");
        if (api == ApiKind.COMPLETIONS && (prompt == null || messages != null)) {
            throw InvalidSettingException.conflict(
                    name -> "a completions request needs a " + name.apply("prompt") + " and no "
                            + name.apply("messages"),
                    "prompt",
                    "messages");
        }
        if (api == ApiKind.CHAT && (messages == null || messages.isEmpty() || prompt != null)) {
            throw InvalidSettingException.conflict(
                    name -> "a chat request needs at least one message (" + name.apply("messages") + ") and no "
                            + name.apply("prompt"),
                    "messages",
                    "prompt");
        }
        if (maxTokens < 1) {
            throw InvalidSettingException.of("maxTokens", maxTokens, "must be at least 1");
        }
        if (minTokens != null && (minTokens < 0 || minTokens > maxTokens)) {
            throw InvalidSettingException.of(
                    "minTokens", minTokens, "must be between 0 and maxTokens (" + maxTokens + ")");
        }
        if (temperature != null && !(temperature >= 0)) {
            throw InvalidSettingException.of("temperature", temperature, "must be at least 0");
        }
        messages = messages == null ? null : List.copyOf(messages);
        extraBody = extraBody == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(extraBody));
        headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** Returns a completions request with the given prompt and output limit. */
    public static RequestSpec completion(String prompt, int maxTokens) {
        return new RequestSpec(
                ApiKind.COMPLETIONS, prompt, null, maxTokens, null, null, null, null, Map.of(), -1, Map.of());
    }

    /** Returns a chat request with the given messages and output limit. */
    public static RequestSpec chat(List<ChatMessage> messages, int maxTokens) {
        return new RequestSpec(ApiKind.CHAT, null, messages, maxTokens, null, null, null, null, Map.of(), -1, Map.of());
    }

    /** Returns a copy with {@code min_tokens}. */
    public RequestSpec withMinTokens(int value) {
        return copy(c -> c.minTokens = value);
    }

    /** Returns a copy with {@code ignore_eos}. */
    public RequestSpec withIgnoreEos(boolean value) {
        return copy(c -> c.ignoreEos = value);
    }

    /** Returns a copy with {@code temperature}. */
    public RequestSpec withTemperature(double value) {
        return copy(c -> c.temperature = value);
    }

    /** Returns a copy with {@code seed}. */
    public RequestSpec withSeed(long value) {
        return copy(c -> c.seed = value);
    }

    /** Returns a copy with extra top-level body fields, replacing any given before. */
    public RequestSpec withExtraBody(Map<String, Object> value) {
        return copy(c -> c.extraBody = value);
    }

    /** Returns a copy that sends the given HTTP headers, replacing any given before. */
    public RequestSpec withHeaders(Map<String, String> value) {
        return copy(c -> c.headers = value);
    }

    /** Returns a copy that records the client's own prompt token count. */
    public RequestSpec withPromptTokens(int value) {
        return copy(c -> c.promptTokens = value);
    }

    private RequestSpec copy(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The components of a request, to change one and build another (a record has no copy constructor). */
    private static final class Copy {
        ApiKind api;
        String prompt;
        List<ChatMessage> messages;
        int maxTokens;
        Integer minTokens;
        Boolean ignoreEos;
        Double temperature;
        Long seed;
        Map<String, Object> extraBody;
        int promptTokens;
        Map<String, String> headers;

        Copy(RequestSpec spec) {
            api = spec.api;
            prompt = spec.prompt;
            messages = spec.messages;
            maxTokens = spec.maxTokens;
            minTokens = spec.minTokens;
            ignoreEos = spec.ignoreEos;
            temperature = spec.temperature;
            seed = spec.seed;
            extraBody = spec.extraBody;
            promptTokens = spec.promptTokens;
            headers = spec.headers;
        }

        RequestSpec build() {
            return new RequestSpec(
                    api,
                    prompt,
                    messages,
                    maxTokens,
                    minTokens,
                    ignoreEos,
                    temperature,
                    seed,
                    extraBody,
                    promptTokens,
                    headers);
        }
    }
}
