package dev.goodput.mock.internal.http;

import java.nio.charset.StandardCharsets;

/**
 * Encodes one request's SSE events as vLLM's OpenAI server writes them, from byte templates computed once per
 * request: the per-chunk work is copying a few arrays, never building a JSON tree.
 *
 * <p>Chat chunks follow vLLM's {@code exclude_unset} serialisation (no {@code usage} key unless there is
 * usage); completion chunks follow its full serialisation ({@code "usage":null}, {@code stop_reason} on every
 * choice).
 */
final class ChunkEncoder {

    private static final byte[] DATA = ascii("data: ");
    private static final byte[] EVENT_END = ascii("}\n\n");
    private static final byte[] DONE = ascii("data: [DONE]\n\n");
    private static final byte[] ROLE_CHOICE = ascii(
            "{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]");
    private static final byte[] CHAT_CONTENT_START = ascii("{\"index\":0,\"delta\":{\"content\":\"");
    private static final byte[] CHAT_CONTENT_END = ascii("\"},\"logprobs\":null,\"finish_reason\":");
    private static final byte[] COMPLETION_TEXT_START = ascii("{\"index\":0,\"text\":\"");
    private static final byte[] COMPLETION_TEXT_END = ascii("\",\"logprobs\":null,\"finish_reason\":");
    private static final byte[] NULL = ascii("null");
    private static final byte[] STOP_REASON_NULL = ascii(",\"stop_reason\":null}]");
    private static final byte[] CHOICE_END = ascii("}]");
    private static final byte[] EMPTY_CHOICES = ascii("]");
    private static final byte[] USAGE_NULL = ascii(",\"usage\":null");
    private static final byte[] CHAT_DELTA_START = ascii("{\"index\":0,\"delta\":{");
    private static final byte[] REASONING_START = ascii("\"reasoning_content\":\"");
    private static final byte[] CONTENT_START = ascii("\"content\":\"");
    private static final byte[] ARGUMENTS_START = ascii("\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"");
    private static final byte[] ARGUMENTS_OPEN = ascii("{\\\"query\\\": \\\"");
    private static final byte[] ARGUMENTS_CLOSE = ascii("\\\"}");
    private static final byte[] TOOL_CALL_END = ascii("\"}}]");
    private static final byte[] QUOTE = ascii("\"");
    private static final byte[] COMMA = ascii(",");
    private static final byte[] DELTA_END = ascii("},\"logprobs\":null,\"finish_reason\":");

    private final boolean chat;
    private final byte[] prefix;
    private final int promptTokens;
    private final int reasoningTokens;
    private final byte[] toolCallStart;

    /**
     * @param id the response id ({@code chatcmpl-…} or {@code cmpl-…})
     * @param createdSeconds the {@code created} timestamp, epoch seconds
     * @param modelJson the model name as a JSON string literal, quotes included
     */
    ChunkEncoder(boolean chat, String id, long createdSeconds, String modelJson, int promptTokens) {
        this(chat, id, createdSeconds, modelJson, promptTokens, 0, null);
    }

    /**
     * @param reasoningTokens the leading output tokens sent as {@code delta.reasoning_content}
     * @param toolName the function the answer calls, streamed as {@code tool_calls} deltas, or null for text
     */
    ChunkEncoder(
            boolean chat,
            String id,
            long createdSeconds,
            String modelJson,
            int promptTokens,
            int reasoningTokens,
            String toolName) {
        this.chat = chat;
        this.promptTokens = promptTokens;
        this.reasoningTokens = reasoningTokens;
        // The first delta of a call names it, as OpenAI's and vLLM's do; later ones carry argument fragments only.
        this.toolCallStart = toolName == null
                ? null
                : ascii("\"tool_calls\":[{\"index\":0,\"id\":\"call_" + id.substring(id.indexOf('-') + 1)
                        + "\",\"type\":\"function\",\"function\":{\"name\":"
                        + new String(HttpResponses.toJson(toolName), StandardCharsets.UTF_8) + ",\"arguments\":\"");
        this.prefix = ("data: {\"id\":\"" + id + "\",\"object\":\""
                        + (chat ? "chat.completion.chunk" : "text_completion") + "\",\"created\":" + createdSeconds
                        + ",\"model\":" + modelJson + ",\"choices\":[")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Appends the role-only first chat chunk (usage with 0 completion tokens when continuous). */
    void role(HttpResponses.Bytes out, boolean continuousUsage) {
        out.writeBytes(prefix);
        out.writeBytes(ROLE_CHOICE);
        usage(out, continuousUsage, 0);
        out.writeBytes(EVENT_END);
    }

    /**
     * Appends a content chunk carrying output tokens {@code first} to {@code first + count} of the request's
     * words.
     *
     * @param finishReason null, or the reason on the last content chunk
     * @param completionTokens cumulative output tokens, for continuous usage
     */
    void content(
            HttpResponses.Bytes out,
            long outputSeed,
            int first,
            int count,
            String finishReason,
            boolean continuousUsage,
            int completionTokens) {
        out.writeBytes(prefix);
        if (chat && (reasoningTokens > 0 || toolCallStart != null)) {
            delta(out, outputSeed, first, count, finishReason != null, completionTokens);
            out.writeBytes(DELTA_END);
        } else {
            out.writeBytes(chat ? CHAT_CONTENT_START : COMPLETION_TEXT_START);
            words(out, outputSeed, first, first + count);
            out.writeBytes(chat ? CHAT_CONTENT_END : COMPLETION_TEXT_END);
        }
        if (finishReason == null) {
            out.writeBytes(NULL);
        } else {
            out.writeBytes(ascii("\"" + finishReason + "\""));
        }
        // vLLM sets stop_reason with finish_reason on chat's last chunk, and on every completion chunk.
        out.writeBytes(finishReason != null || !chat ? STOP_REASON_NULL : CHOICE_END);
        usage(out, continuousUsage, completionTokens);
        out.writeBytes(EVENT_END);
    }

    /**
     * Writes the delta of a response with reasoning or a tool call, up to its closing quote: the tokens before
     * {@code reasoningTokens} as {@code reasoning_content}, the others as {@code content} or as the arguments of
     * the tool call ({@code {"query": "<words>"}}, closed on the finishing chunk); a chunk that straddles the end of
     * the reasoning carries both, as vLLM's reasoning parsers send it.
     */
    private void delta(
            HttpResponses.Bytes out, long outputSeed, int first, int count, boolean finishing, int completionTokens) {
        out.writeBytes(CHAT_DELTA_START);
        int end = first + count;
        int reasoningEnd = Math.min(end, reasoningTokens);
        boolean reasoning = first < reasoningEnd;
        if (reasoning) {
            out.writeBytes(REASONING_START);
            words(out, outputSeed, first, reasoningEnd);
            out.writeBytes(QUOTE);
        }
        int answerStart = Math.max(first, reasoningTokens);
        boolean callOpen = toolCallStart != null && completionTokens > reasoningTokens;
        if (callOpen && (answerStart < end || finishing)) {
            if (reasoning) {
                out.writeBytes(COMMA);
            }
            boolean opening = answerStart == reasoningTokens && answerStart < end;
            out.writeBytes(opening ? toolCallStart : ARGUMENTS_START);
            if (opening) {
                out.writeBytes(ARGUMENTS_OPEN);
            }
            words(out, outputSeed, answerStart, end);
            if (finishing) {
                out.writeBytes(ARGUMENTS_CLOSE);
            }
            out.writeBytes(TOOL_CALL_END);
        } else if (toolCallStart == null && (answerStart < end || !reasoning)) {
            if (reasoning) {
                out.writeBytes(COMMA);
            }
            out.writeBytes(CONTENT_START);
            words(out, outputSeed, answerStart, end);
            out.writeBytes(QUOTE);
        } else if (!reasoning) {
            // A finishing chunk of a response that ended inside its reasoning.
            out.writeBytes(CONTENT_START);
            out.writeBytes(QUOTE);
        }
    }

    private static void words(HttpResponses.Bytes out, long outputSeed, int from, int to) {
        for (int i = from; i < to; i++) {
            out.writeBytes(OutputWords.tokenBytes(outputSeed, i));
        }
    }

    /** Appends the usage-only chunk ({@code "choices":[]}) of {@code stream_options.include_usage}. */
    void usageOnly(HttpResponses.Bytes out, int completionTokens) {
        out.writeBytes(prefix);
        out.writeBytes(EMPTY_CHOICES);
        usage(out, true, completionTokens);
        out.writeBytes(EVENT_END);
    }

    /** Appends an in-band error event, as vLLM sends when a stream fails after its 200 response. */
    void error(HttpResponses.Bytes out, int code, String message) {
        out.writeBytes(DATA);
        out.writeBytes(HttpResponses.toJson(HttpResponses.errorBody(code, message)));
        out.writeBytes(ascii("\n\n"));
    }

    /** Appends {@code data: [DONE]}. */
    void done(HttpResponses.Bytes out) {
        out.writeBytes(DONE);
    }

    private void usage(HttpResponses.Bytes out, boolean present, int completionTokens) {
        if (!present) {
            if (!chat) {
                out.writeBytes(USAGE_NULL);
            }
            return;
        }
        out.writeBytes(ascii(",\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"total_tokens\":"
                + (promptTokens + completionTokens) + ",\"completion_tokens\":" + completionTokens
                + (chat ? "}" : ",\"prompt_tokens_details\":null}")));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
