package dev.goodput.mock.internal.http;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads a chat request's {@code tools} and {@code tool_choice} as vLLM validates them, to decide whether the answer
 * is a tool call: with tools and a {@code tool_choice} other than {@code "none"}, the simulated model calls the
 * first tool (or the one {@code tool_choice} names), as a model served with {@code tool_choice: "required"} must.
 */
final class ToolsField {

    private ToolsField() {}

    /** Returns the name of the function the answer calls, or null to answer in text. */
    static String calledTool(JsonNode root) throws ApiException {
        JsonNode tools = root.get("tools");
        if (tools == null || tools.isNull()) {
            return null;
        }
        if (!tools.isArray()) {
            throw new ApiException(400, "Field 'tools' must be an array, got " + tools.getNodeType());
        }
        for (int i = 0; i < tools.size(); i++) {
            JsonNode tool = tools.get(i);
            if (!"function".equals(tool.path("type").asText())
                    || !tool.path("function").path("name").isTextual()) {
                throw new ApiException(
                        400, "tools[" + i + "] must be {\"type\": \"function\", \"function\": {\"name\": ...}}");
            }
        }
        JsonNode choice = root.path("tool_choice");
        if (tools.isEmpty() || "none".equals(choice.asText())) {
            return null;
        }
        String named = choice.path("function").path("name").asText(null);
        return named != null
                ? named
                : tools.get(0).path("function").path("name").asText();
    }
}
