package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The request settings every workload of this package shares: endpoint, {@code ignore_eos}, {@code temperature} and
 * further body fields (tools, for example). Defaults follow vLLM's benchmark recipe: chat, {@code ignore_eos: true},
 * temperature 0, nothing else.
 *
 * <p>To make the server answer with tool calls, give the requests tools: {@link #withTools(List)} sends them with
 * {@code tool_choice: "required"}, so a model that can call tools must (vLLM needs a tool parser,
 * {@code --tool-call-parser}, for streamed tool calls; the simulated server always answers with one).
 *
 * @param api chat completions or plain completions; chat templates are left to the server
 * @param ignoreEos whether to send {@code ignore_eos: true}, which pins the output length
 * @param temperature {@code temperature}, at least 0
 * @param extraBody further top-level body fields every request carries, as given ({@code null} for none)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RequestShape(ApiKind api, boolean ignoreEos, double temperature, Map<String, Object> extraBody) {

    /** Chat, {@code ignore_eos: true}, temperature 0. */
    public static final RequestShape DEFAULT = new RequestShape(ApiKind.CHAT, true, 0.0, Map.of());

    /**
     * A small function tool for load tests that ask for tool calls: {@code lookup(query: string)}. Its definition is
     * about 60 prompt tokens once a chat template renders it.
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static final Map<String, Object> LOOKUP_TOOL = Map.of(
            "type",
            "function",
            "function",
            Map.of(
                    "name",
                    "lookup",
                    "description",
                    "Looks a query up in the knowledge base and returns the best matching passage.",
                    "parameters",
                    Map.of(
                            "type",
                            "object",
                            "properties",
                            Map.of("query", Map.of("type", "string", "description", "what to look up")),
                            "required",
                            List.of("query"))));

    public RequestShape {
        if (api == null) {
            throw InvalidSettingException.of("api", null, "must be CHAT or COMPLETIONS");
        }
        if (!(temperature >= 0)) {
            throw InvalidSettingException.of("temperature", temperature, "must be at least 0");
        }
        extraBody = extraBody == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extraBody));
        if (api != ApiKind.CHAT && extraBody.containsKey("tools")) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("tools") + " need " + name.apply("api")
                            + " CHAT (tool calls are a chat feature)," + " was " + api,
                    "tools",
                    "api");
        }
    }

    /**
     * Returns these settings with {@code tools} and {@code tool_choice: "required"} in every request, so that the
     * model answers with a tool call; for example {@code RequestShape.DEFAULT.withTools(List.of(LOOKUP_TOOL))}.
     *
     * @param tools OpenAI tool definitions ({@code {"type": "function", "function": {"name": ..., "parameters":
     *     ...}}}), at least one
     * @throws InvalidSettingException without tools, or for the completions endpoint
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public RequestShape withTools(List<Map<String, Object>> tools) {
        if (tools == null || tools.isEmpty()) {
            throw InvalidSettingException.of("tools", tools, "must name at least one tool");
        }
        Map<String, Object> body = new LinkedHashMap<>(extraBody);
        body.put("tools", List.copyOf(tools));
        body.put("tool_choice", "required");
        return new RequestShape(api, ignoreEos, temperature, body);
    }

    /** Returns these settings with further top-level body fields, replacing those given before. */
    @API(status = EXPERIMENTAL, since = "0.2")
    public RequestShape withExtraBody(Map<String, Object> value) {
        return new RequestShape(api, ignoreEos, temperature, value);
    }

    /** Returns a request for one prompt: a single user message for chat, the prompt itself for completions. */
    public RequestSpec request(String prompt, int promptTokens, int outputTokens) {
        RequestSpec spec = api == ApiKind.CHAT
                ? RequestSpec.chat(List.of(ChatMessage.user(prompt)), outputTokens)
                : RequestSpec.completion(prompt, outputTokens);
        return finish(spec, promptTokens);
    }

    /** Returns a chat request for whole messages; the client's count is that of the messages' text. */
    public RequestSpec request(List<ChatMessage> messages, int promptTokens, int outputTokens) {
        return finish(RequestSpec.chat(messages, outputTokens), promptTokens);
    }

    private RequestSpec finish(RequestSpec spec, int promptTokens) {
        RequestSpec shaped =
                spec.withIgnoreEos(ignoreEos).withTemperature(temperature).withPromptTokens(promptTokens);
        return extraBody.isEmpty() ? shaped : shaped.withExtraBody(extraBody);
    }

    /** Describes these settings for the run's recorded configuration. */
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("api", api.name());
        description.put("ignore_eos", ignoreEos);
        description.put("temperature", temperature);
        if (!extraBody.isEmpty()) {
            description.put("extra_body", extraBody);
        }
        return description;
    }
}
