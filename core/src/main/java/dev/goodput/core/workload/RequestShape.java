package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.ApiKind;
import dev.goodput.core.ChatMessage;
import dev.goodput.core.RequestSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The request settings every workload of this package shares: endpoint, {@code ignore_eos} and {@code
 * temperature}. Defaults follow vLLM's benchmark recipe: chat, {@code ignore_eos: true}, temperature 0.
 *
 * @param api chat completions or plain completions; chat templates are left to the server
 * @param ignoreEos whether to send {@code ignore_eos: true}, which pins the output length
 * @param temperature {@code temperature}, at least 0
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RequestShape(ApiKind api, boolean ignoreEos, double temperature) {

    /** Chat, {@code ignore_eos: true}, temperature 0. */
    public static final RequestShape DEFAULT = new RequestShape(ApiKind.CHAT, true, 0.0);

    public RequestShape {
        if (api == null) {
            throw new IllegalArgumentException("api must be CHAT or COMPLETIONS, was null");
        }
        if (!(temperature >= 0)) {
            throw new IllegalArgumentException("temperature must be at least 0, was " + temperature);
        }
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
        return spec.withIgnoreEos(ignoreEos).withTemperature(temperature).withPromptTokens(promptTokens);
    }

    /** Describes these settings for the run's recorded configuration. */
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("api", api.name());
        description.put("ignore_eos", ignoreEos);
        description.put("temperature", temperature);
        return description;
    }
}
