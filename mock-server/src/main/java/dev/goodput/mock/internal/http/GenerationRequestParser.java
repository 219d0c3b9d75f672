package dev.goodput.mock.internal.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.goodput.mock.WordTokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses and validates generation requests the way vLLM's OpenAI server does: unknown fields are ignored,
 * known ones are checked, and refusals carry vLLM's status and wording.
 */
final class GenerationRequestParser {

    /** vLLM's default {@code max_tokens} for the legacy completions endpoint. */
    static final int COMPLETIONS_DEFAULT_MAX_TOKENS = 16;

    private final String modelName;
    private final int maxModelLen;
    private final int reasoningTokens;

    GenerationRequestParser(String modelName, int maxModelLen, int reasoningTokens) {
        this.modelName = modelName;
        this.maxModelLen = maxModelLen;
        this.reasoningTokens = reasoningTokens;
    }

    GenerationRequest parse(byte[] body, boolean chat) throws ApiException {
        JsonNode root;
        try {
            root = HttpResponses.JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ApiException(400, "Invalid JSON in request body: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ApiException(400, "Unreadable request body");
        }
        if (root == null || !root.isObject()) {
            throw new ApiException(400, "The request body must be a JSON object");
        }
        JsonNode model = root.get("model");
        if (model == null || model.isNull()) {
            throw new ApiException(400, "Field 'model' is required");
        }
        if (!model.isTextual()) {
            throw new ApiException(400, "Field 'model' must be a string");
        }
        if (!model.asText().equals(modelName)) {
            throw new ApiException(404, "The model `" + model.asText() + "` does not exist.");
        }
        long[] hashes = chat ? chatPrompt(root) : completionPrompt(root);

        int n = intField(root, "n", 1);
        if (n != 1) {
            throw new ApiException(400, "Only n=1 is supported by this server, got n=" + n);
        }
        Integer maxTokens = optionalInt(
                root, chat && root.hasNonNull("max_completion_tokens") ? "max_completion_tokens" : "max_tokens");
        int prompt = hashes.length;
        if (prompt >= maxModelLen) {
            throw new ApiException(
                    400,
                    "This model's maximum context length is " + maxModelLen
                            + " tokens. However, your request has " + prompt
                            + " input tokens. Please reduce the length of the input messages.");
        }
        int max = maxTokens != null ? maxTokens : chat ? maxModelLen - prompt : COMPLETIONS_DEFAULT_MAX_TOKENS;
        if (max < 1) {
            throw new ApiException(400, "max_tokens must be at least 1, got " + max + ".");
        }
        if ((long) prompt + max > maxModelLen) {
            throw new ApiException(
                    400,
                    "This model's maximum context length is " + maxModelLen
                            + " tokens. However, you requested " + (prompt + max) + " tokens (" + prompt
                            + " in the messages, " + max
                            + " in the completion). Please reduce the length of the messages or completion.");
        }
        int minTokens = intField(root, "min_tokens", 0);
        if (minTokens < 0 || minTokens > max) {
            throw new ApiException(400, "min_tokens must be between 0 and max_tokens=" + max + ", got " + minTokens);
        }
        double temperature = root.hasNonNull("temperature") ? numberField(root, "temperature") : 1.0;
        if (temperature < 0) {
            throw new ApiException(400, "temperature must be non-negative, got " + temperature + ".");
        }
        Long seed = root.hasNonNull("seed") ? Long.valueOf(longField(root, "seed")) : null;
        boolean stream = booleanField(root, "stream", false);
        boolean includeUsage = false;
        boolean continuousUsage = false;
        JsonNode streamOptions = root.get("stream_options");
        if (streamOptions != null && !streamOptions.isNull()) {
            if (!stream) {
                throw new ApiException(400, "Stream options can only be defined when `stream=True`.");
            }
            if (!streamOptions.isObject()) {
                throw new ApiException(400, "Field 'stream_options' must be an object");
            }
            includeUsage = booleanField(streamOptions, "include_usage", false);
            // As in vLLM, continuous usage stats only apply together with include_usage.
            continuousUsage = includeUsage && booleanField(streamOptions, "continuous_usage_stats", false);
        }
        boolean ignoreEos = booleanField(root, "ignore_eos", false);
        // Qwen3's chat template switch, which vLLM passes through chat_template_kwargs.
        JsonNode enableThinking = root.path("chat_template_kwargs").path("enable_thinking");
        boolean thinking = !enableThinking.isBoolean() || enableThinking.asBoolean();
        return new GenerationRequest(
                chat,
                hashes,
                max,
                minTokens,
                ignoreEos,
                seed,
                temperature,
                stream,
                includeUsage,
                continuousUsage,
                chat && thinking ? reasoningTokens : 0,
                chat ? ToolsField.calledTool(root) : null);
    }

    private static long[] completionPrompt(JsonNode root) throws ApiException {
        JsonNode prompt = root.get("prompt");
        if (prompt == null || prompt.isNull()) {
            throw new ApiException(400, "Field 'prompt' is required");
        }
        if (prompt.isArray()) {
            if (prompt.isEmpty()) {
                throw new ApiException(400, "Field 'prompt' must not be empty");
            }
            JsonNode first = prompt.get(0);
            if (first.isIntegralNumber()) {
                return tokenIds(prompt);
            }
            if (first.isArray()) {
                return tokenIds(first);
            }
            prompt = first;
        }
        if (!prompt.isTextual()) {
            throw new ApiException(
                    400, "Field 'prompt' must be a string, an array of strings or an array of token ids");
        }
        return WordTokenizer.hashes(prompt.asText());
    }

    private static long[] tokenIds(JsonNode ids) throws ApiException {
        long[] hashes = new long[ids.size()];
        for (int i = 0; i < hashes.length; i++) {
            if (!ids.get(i).isIntegralNumber()) {
                throw new ApiException(400, "Field 'prompt' mixes token ids with other values at index " + i);
            }
            hashes[i] = WordTokenizer.hash(Long.toString(ids.get(i).asLong()));
        }
        return hashes;
    }

    private static long[] chatPrompt(JsonNode root) throws ApiException {
        JsonNode messages = root.get("messages");
        if (messages == null || messages.isNull()) {
            throw new ApiException(400, "Field 'messages' is required");
        }
        if (!messages.isArray() || messages.isEmpty()) {
            throw new ApiException(400, "Field 'messages' must be a non-empty array");
        }
        List<String> roles = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            if (!message.isObject() || !message.path("role").isTextual()) {
                throw new ApiException(400, "messages[" + i + "] must be an object with a string 'role'");
            }
            roles.add(message.get("role").asText());
            texts.add(messageText(message.get("content")));
        }
        return WordTokenizer.chatHashes(roles, texts);
    }

    /** A message's text: a string, or the text parts of a content array joined by newlines. */
    private static String messageText(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        if (content.isArray()) {
            for (JsonNode part : content) {
                if (part.path("text").isTextual()) {
                    text.append(part.get("text").asText()).append('\n');
                }
            }
        }
        return text.toString();
    }

    private static Integer optionalInt(JsonNode root, String field) throws ApiException {
        return root.hasNonNull(field) ? (Integer) intField(root, field, 0) : null;
    }

    private static int intField(JsonNode root, String field, int absent) throws ApiException {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new ApiException(400, "Field '" + field + "' must be an integer, got " + value);
        }
        return value.asInt();
    }

    private static long longField(JsonNode root, String field) throws ApiException {
        JsonNode value = root.get(field);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new ApiException(400, "Field '" + field + "' must be an integer, got " + value);
        }
        return value.asLong();
    }

    private static double numberField(JsonNode root, String field) throws ApiException {
        JsonNode value = root.get(field);
        if (!value.isNumber()) {
            throw new ApiException(400, "Field '" + field + "' must be a number, got " + value);
        }
        return value.asDouble();
    }

    private static boolean booleanField(JsonNode root, String field, boolean absent) throws ApiException {
        JsonNode value = root.get(field);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isBoolean()) {
            throw new ApiException(400, "Field '" + field + "' must be a boolean, got " + value);
        }
        return value.asBoolean();
    }
}
