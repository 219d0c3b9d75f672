package dev.goodput.core.testing;

/** SSE payloads in the shapes vLLM sends, for tests. */
public final class SseText {

    public static final String DONE = "data: [DONE]\n\n";

    private SseText() {}

    public static String roleChunk() {
        return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n";
    }

    public static String contentChunk(String text, String finishReason) {
        return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"" + text + "\"},\"finish_reason\":"
                + (finishReason == null ? "null" : "\"" + finishReason + "\"") + "}]}\n\n";
    }

    /** A content chunk with vLLM's continuous usage: cumulative completion tokens so far. */
    public static String contentChunkWithUsage(String text, String finishReason, int prompt, int cumulative) {
        return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"" + text + "\"},\"finish_reason\":"
                + (finishReason == null ? "null" : "\"" + finishReason + "\"") + "}],\"usage\":{\"prompt_tokens\":"
                + prompt + ",\"completion_tokens\":" + cumulative + ",\"total_tokens\":" + (prompt + cumulative)
                + "}}\n\n";
    }

    public static String usageChunk(int prompt, int completion) {
        return "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{"
                + "\"prompt_tokens\":" + prompt + ",\"completion_tokens\":" + completion + ",\"total_tokens\":"
                + (prompt + completion) + "}}\n\n";
    }

    public static String errorEvent(String message) {
        return "data: {\"error\":{\"message\":\"" + message + "\",\"type\":\"InternalServerError\",\"param\":null,"
                + "\"code\":500}}\n\n";
    }
}
