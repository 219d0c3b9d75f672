package dev.goodput.mock.internal.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.goodput.mock.internal.engine.TokenSink;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

/** Collects one generation and answers with a single JSON body when it ends (a non-streaming request). */
final class BufferedResponse implements TokenSink {

    private final HttpConnection connection;
    private final Executor lane;
    private final LiveTruth truth;
    private final GenerationRequest request;
    private final String id;
    private final long createdSeconds;
    private final String modelName;
    private final long outputSeed;
    private final boolean keepAlive;
    private boolean completed;
    private volatile boolean cancelled;

    BufferedResponse(
            HttpConnection connection,
            Executor lane,
            LiveTruth truth,
            GenerationRequest request,
            String id,
            long createdSeconds,
            String modelName,
            long outputSeed,
            boolean keepAlive) {
        this.connection = connection;
        this.lane = lane;
        this.truth = truth;
        this.request = request;
        this.id = id;
        this.createdSeconds = createdSeconds;
        this.modelName = modelName;
        this.outputSeed = outputSeed;
        this.keepAlive = keepAlive;
    }

    void start() {
        connection.onClose(() -> {
            cancelled = true;
            truth.finish(System.nanoTime(), "abort", 200);
        });
    }

    @Override
    public void onTokens(int firstTokenIndex, int count, long intendedNanos) {
        truth.chunk(firstTokenIndex, count, intendedNanos);
        if (firstTokenIndex + count >= request.maxTokens()) {
            complete("length");
        }
    }

    @Override
    public void onFinish(String finishReason, long intendedNanos) {
        complete(finishReason);
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    private void complete(String finishReason) {
        synchronized (this) {
            if (completed) {
                return;
            }
            completed = true;
        }
        lane.execute(() -> send(finishReason));
    }

    private void send(String finishReason) {
        if (connection.isClosed()) {
            return;
        }
        int completionTokens = truth.completionTokens();
        String text = OutputWords.text(outputSeed, 0, completionTokens);
        ObjectNode body = HttpResponses.JSON.createObjectNode();
        body.put("id", id);
        body.put("object", request.chat() ? "chat.completion" : "text_completion");
        body.put("created", createdSeconds);
        body.put("model", modelName);
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0);
        int reasoning = Math.min(request.reasoningTokens(), completionTokens);
        boolean callsTool = request.toolName() != null && completionTokens > reasoning;
        String reason = callsTool && "stop".equals(finishReason) ? "tool_calls" : finishReason;
        if (request.chat()) {
            ObjectNode message = choice.putObject("message");
            message.put("role", "assistant");
            String answer = OutputWords.text(outputSeed, reasoning, completionTokens);
            message.put("content", callsTool ? null : answer);
            if (reasoning > 0) {
                message.put("reasoning_content", OutputWords.text(outputSeed, 0, reasoning));
            }
            message.putNull("refusal");
            ArrayNode calls = message.putArray("tool_calls");
            if (callsTool) {
                ObjectNode call = calls.addObject();
                call.put("id", "call_" + id.substring(id.indexOf('-') + 1));
                call.put("type", "function");
                call.putObject("function")
                        .put("name", request.toolName())
                        .put("arguments", "{\"query\": \"" + answer + "\"}");
            }
        } else {
            choice.put("text", text);
        }
        choice.putNull("logprobs");
        choice.put("finish_reason", reason);
        choice.putNull("stop_reason");
        ObjectNode usage = body.putObject("usage");
        usage.put("prompt_tokens", request.promptTokens());
        usage.put("total_tokens", request.promptTokens() + completionTokens);
        usage.put("completion_tokens", completionTokens);
        byte[] response = HttpResponses.json(200, body, keepAlive);
        connection.send(ByteBuffer.wrap(response), sentNanos -> {
            truth.allSent(sentNanos);
            truth.finish(sentNanos, reason, 200);
            cancelled = true;
            connection.endResponse(keepAlive);
        });
    }
}
