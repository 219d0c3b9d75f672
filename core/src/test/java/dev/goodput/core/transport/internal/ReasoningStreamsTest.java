package dev.goodput.core.transport.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.workload.RequestSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reasoning and tool-call streams in the shape of every server of {@code research/server-facts.md} (vLLM, SGLang,
 * TGI, llama.cpp, Ollama, OpenAI), written by hand after their formats, fed through one attempt one event per read:
 * event {@code i} (counting from 0, the {@code [DONE]} included) arrives at {@code 10 + 10 i} ms and the request was
 * meant to start at 0, so every instant below names the event it must come from.
 */
class ReasoningStreamsTest {

    private static final long MS = 1_000_000;
    private final List<RequestRecord> records = new ArrayList<>();

    /** Event {@code i}'s arrival. */
    private static long event(int i) {
        return (10 + 10L * i) * MS;
    }

    @Test
    void should_time_vllm_reasoning_content_with_continuous_usage_and_keep_ttft_the_first_token_of_any_kind() {
        RequestRecord record = replay("""
                data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":9,"total_tokens":9,"completion_tokens":0}}

                data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":"Let me"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":9,"total_tokens":11,"completion_tokens":2}}

                data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":" think"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":9,"total_tokens":12,"completion_tokens":3}}

                data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Paris"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":9,"total_tokens":13,"completion_tokens":4}}

                data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" it"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":9,"total_tokens":14,"completion_tokens":5}}

                data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":" is"},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"usage":{"prompt_tokens":9,"total_tokens":15,"completion_tokens":6}}

                data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":9,"total_tokens":15,"completion_tokens":6}}

                data: [DONE]

                """);

        StreamPhases phases = record.streamPhases();
        assertThat(record.firstTokenNanos()).isEqualTo(event(1));
        assertThat(phases.firstReasoningNanos()).isEqualTo(event(1));
        assertThat(phases.lastReasoningNanos()).isEqualTo(event(2));
        assertThat(phases.firstAnswerNanos()).isEqualTo(event(3));
        assertThat(phases.lastAnswerNanos()).isEqualTo(event(5));
        assertThat(phases.reasoningEvents()).isEqualTo(2);
        assertThat(phases.answerEvents()).isEqualTo(3);
        assertThat(phases.reasoningTokens())
                .as("2 + 1 by the growth of the cumulative count")
                .isEqualTo(3);
        assertThat(phases.reasoningTokenSource()).isEqualTo(TokenCountSource.CONTINUOUS_USAGE);
        assertThat(phases.toolCalls()).isZero();
        assertThat(record.ttftNanos()).isEqualTo(event(1));
        assertThat(record.ttfoNanos()).isEqualTo(event(3));
        // 6 output tokens, 3 of them reasoning: 3 answer tokens over events 3..5.
        assertThat(record.answerTpotNanos()).isCloseTo((event(5) - event(3)) / 2.0, within(1e-6));
        assertThat(record.tpotNanos()).isCloseTo((event(5) - event(1)) / 5.0, within(1e-6));
    }

    @Test
    void should_count_an_event_that_ends_the_reasoning_and_starts_the_answer_in_both_phases() {
        RequestRecord record = replay("""
                data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}

                data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":"Hm"},"logprobs":null,"finish_reason":null}]}

                data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":" ok.","content":"Yes"},"logprobs":null,"finish_reason":null}]}

                data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"."},"logprobs":null,"finish_reason":"stop"}]}

                data: [DONE]

                """);

        StreamPhases phases = record.streamPhases();
        assertThat(phases.lastReasoningNanos()).isEqualTo(event(2));
        assertThat(phases.firstAnswerNanos()).isEqualTo(event(2));
        assertThat(phases.reasoningEvents()).isEqualTo(2);
        assertThat(phases.answerEvents()).isEqualTo(2);
        assertThat(phases.reasoningTokens()).isEqualTo(2);
        assertThat(phases.reasoningTokenSource()).isEqualTo(TokenCountSource.CONTENT_EVENTS);
        assertThat(record.contentEvents()).isEqualTo(3);
    }

    @Test
    void should_time_sglang_reasoning_content_then_a_streamed_tool_call() {
        RequestRecord record = replay("""
                data: {"id":"s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"Need","tool_calls":null},"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}

                data: {"id":"s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":" weather","tool_calls":null},"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}

                data: {"id":"s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":null,"tool_calls":[{"id":"call_1","index":0,"type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}

                data: {"id":"s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":null,"tool_calls":[{"id":null,"index":0,"type":null,"function":{"name":null,"arguments":"{\\"city\\": "}}]},"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}

                data: {"id":"s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":null,"tool_calls":[{"id":null,"index":0,"type":null,"function":{"name":null,"arguments":"\\"Paris\\"}"}}]},"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}

                data: {"id":"s","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":null,"tool_calls":null},"logprobs":null,"finish_reason":"tool_calls","matched_stop":null}],"usage":null}

                data: {"id":"s","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":20,"total_tokens":30,"completion_tokens":10}}

                data: [DONE]

                """);

        StreamPhases phases = record.streamPhases();
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(record.finishReason()).isEqualTo("tool_calls");
        assertThat(phases.firstReasoningNanos()).isEqualTo(event(0));
        assertThat(phases.lastReasoningNanos()).isEqualTo(event(1));
        assertThat(phases.firstAnswerNanos()).as("the tool call's first delta").isEqualTo(event(2));
        assertThat(phases.lastAnswerNanos()).isEqualTo(event(4));
        assertThat(phases.answerEvents()).isEqualTo(3);
        assertThat(phases.toolCalls()).isEqualTo(1);
        assertThat(phases.reasoningTokens()).isEqualTo(2);
        assertThat(phases.reasoningTokenSource()).isEqualTo(TokenCountSource.CONTENT_EVENTS);
        assertThat(record.outputTokens()).isEqualTo(10);
        assertThat(record.ttfoNanos()).isEqualTo(event(2));
        // 10 output tokens, 2 of them reasoning: 8 answer tokens over events 2..4.
        assertThat(record.answerTpotNanos()).isCloseTo((event(4) - event(2)) / 7.0, within(1e-6));
    }

    @Test
    void should_read_tgi_role_on_every_delta_as_answer_and_its_older_tool_call_object() {
        RequestRecord record = replay("""
                data: {"object":"chat.completion.chunk","id":"","created":1,"model":"m","system_fingerprint":"2.4.1-native","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":{"index":0,"id":"","type":"function","function":{"name":null,"arguments":"{\\""}}},"logprobs":null,"finish_reason":null}]}

                data: {"object":"chat.completion.chunk","id":"","created":1,"model":"m","system_fingerprint":"2.4.1-native","choices":[{"index":0,"delta":{"role":"assistant","tool_calls":{"index":0,"id":"","type":"function","function":{"name":null,"arguments":"city\\": \\"Paris\\"}"}}},"logprobs":null,"finish_reason":"eos_token"}]}

                data: [DONE]

                """);

        StreamPhases phases = record.streamPhases();
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(phases.firstAnswerNanos()).isEqualTo(event(0));
        assertThat(phases.lastAnswerNanos()).isEqualTo(event(1));
        assertThat(phases.toolCalls()).isEqualTo(1);
        assertThat(phases.hasReasoning()).isFalse();
        assertThat(record.ttfoNanos()).isEqualTo(record.ttftNanos());
    }

    @Test
    void should_read_a_tgi_text_stream_as_all_answer_so_ttfo_and_answer_tpot_equal_ttft_and_tpot() {
        RequestRecord record = replay("""
                data: {"object":"chat.completion.chunk","id":"","created":1,"model":"m","system_fingerprint":"3.0.0-native","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"logprobs":null,"finish_reason":null}]}

                data: {"object":"chat.completion.chunk","id":"","created":1,"model":"m","system_fingerprint":"3.0.0-native","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}

                data: {"object":"chat.completion.chunk","id":"","created":1,"model":"m","system_fingerprint":"3.0.0-native","choices":[{"index":0,"delta":{"role":"assistant","content":" there"},"logprobs":null,"finish_reason":"stop"}]}

                data: {"object":"chat.completion.chunk","id":"","created":1,"model":"m","system_fingerprint":"3.0.0-native","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":3,"total_tokens":8}}

                data: [DONE]

                """);

        assertThat(record.streamPhases().answerEvents()).isEqualTo(2);
        assertThat(record.streamPhases().reasoningTokenSource()).isEqualTo(TokenCountSource.NONE);
        assertThat(record.ttfoNanos()).isEqualTo(record.ttftNanos()).isEqualTo(event(0));
        assertThat(record.answerTpotNanos()).isEqualTo(record.tpotNanos());
    }

    @Test
    void should_time_llama_cpp_reasoning_content_and_a_tool_call_with_its_separate_finish_chunk() {
        RequestRecord record = replay("""
                data: {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],"created":1,"id":"chatcmpl-l","model":"m","system_fingerprint":"b6000","object":"chat.completion.chunk"}

                data: {"choices":[{"finish_reason":null,"index":0,"delta":{"reasoning_content":"Check"}}],"created":1,"id":"chatcmpl-l","model":"m","system_fingerprint":"b6000","object":"chat.completion.chunk"}

                data: {"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":0,"id":"abc","type":"function","function":{"name":"lookup","arguments":""}}]}}],"created":1,"id":"chatcmpl-l","model":"m","system_fingerprint":"b6000","object":"chat.completion.chunk"}

                data: {"choices":[{"finish_reason":null,"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"q\\":\\"x\\"}"}}]}}],"created":1,"id":"chatcmpl-l","model":"m","system_fingerprint":"b6000","object":"chat.completion.chunk"}

                data: {"choices":[{"finish_reason":"tool_calls","index":0,"delta":{}}],"created":1,"id":"chatcmpl-l","model":"m","system_fingerprint":"b6000","object":"chat.completion.chunk"}

                data: {"choices":[],"created":1,"id":"chatcmpl-l","model":"m","system_fingerprint":"b6000","object":"chat.completion.chunk","usage":{"completion_tokens":7,"prompt_tokens":11,"total_tokens":18},"timings":{"cache_n":0,"prompt_n":11,"prompt_ms":5.0,"prompt_per_token_ms":0.45,"prompt_per_second":2200.0,"predicted_n":7,"predicted_ms":30.0,"predicted_per_token_ms":4.3,"predicted_per_second":233.0}}

                data: [DONE]

                """);

        StreamPhases phases = record.streamPhases();
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(phases.firstReasoningNanos()).isEqualTo(event(1)).isEqualTo(phases.lastReasoningNanos());
        assertThat(phases.firstAnswerNanos()).isEqualTo(event(2));
        assertThat(phases.lastAnswerNanos()).isEqualTo(event(3));
        assertThat(phases.toolCalls()).isEqualTo(1);
        assertThat(record.lastTokenNanos())
                .as("the empty finish chunk carries no token")
                .isEqualTo(event(3));
        assertThat(record.serverTimings()).isNotNull();
    }

    @Test
    void should_time_ollama_reasoning_beside_empty_content_and_a_whole_tool_call_in_one_chunk() {
        RequestRecord record = replay("""
                data: {"id":"chatcmpl-7","object":"chat.completion.chunk","created":1,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Okay"},"finish_reason":null}]}

                data: {"id":"chatcmpl-7","object":"chat.completion.chunk","created":1,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":", so"},"finish_reason":null}]}

                data: {"id":"chatcmpl-7","object":"chat.completion.chunk","created":1,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_a","index":0,"type":"function","function":{"name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"}},{"id":"call_b","index":1,"type":"function","function":{"name":"get_time","arguments":"{}"}}]},"finish_reason":null}]}

                data: {"id":"chatcmpl-7","object":"chat.completion.chunk","created":1,"model":"qwen3","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"tool_calls"}]}

                data: [DONE]

                """);

        StreamPhases phases = record.streamPhases();
        assertThat(record.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(phases.firstReasoningNanos()).isEqualTo(event(0));
        assertThat(phases.lastReasoningNanos()).isEqualTo(event(1));
        assertThat(phases.firstAnswerNanos()).isEqualTo(event(2)).isEqualTo(phases.lastAnswerNanos());
        assertThat(phases.toolCalls()).as("two calls, told apart by index").isEqualTo(2);
        assertThat(phases.reasoningTokens()).isEqualTo(2);
        assertThat(record.ttfoNanos()).isEqualTo(event(2));
        assertThat(record.answerTpotNanos())
                .as("without usage the output is 3 events, 2 of them reasoning: one answer token")
                .isNaN();
    }

    @Test
    void should_take_openai_reasoning_tokens_from_usage_when_the_reasoning_is_not_streamed() {
        RequestRecord record = replay("""
                data: {"id":"chatcmpl-o","object":"chat.completion.chunk","created":1,"model":"o4-mini","system_fingerprint":null,"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}],"usage":null}

                data: {"id":"chatcmpl-o","object":"chat.completion.chunk","created":1,"model":"o4-mini","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"Four"},"logprobs":null,"finish_reason":null}],"usage":null}

                data: {"id":"chatcmpl-o","object":"chat.completion.chunk","created":1,"model":"o4-mini","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"."},"logprobs":null,"finish_reason":null}],"usage":null}

                data: {"id":"chatcmpl-o","object":"chat.completion.chunk","created":1,"model":"o4-mini","system_fingerprint":null,"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}

                data: {"id":"chatcmpl-o","object":"chat.completion.chunk","created":1,"model":"o4-mini","system_fingerprint":null,"choices":[],"usage":{"prompt_tokens":12,"completion_tokens":195,"total_tokens":207,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"completion_tokens_details":{"reasoning_tokens":192,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}

                data: [DONE]

                """);

        StreamPhases phases = record.streamPhases();
        assertThat(phases.reasoningEvents()).isZero();
        assertThat(phases.firstReasoningNanos()).isEqualTo(ABSENT);
        assertThat(phases.reasoningTokens()).isEqualTo(192);
        assertThat(phases.reasoningTokenSource()).isEqualTo(TokenCountSource.USAGE);
        assertThat(phases.hasReasoning()).isTrue();
        assertThat(record.ttfoNanos()).isEqualTo(record.ttftNanos()).isEqualTo(event(1));
        // 195 - 192 = 3 answer tokens over events 1..2.
        assertThat(record.answerTpotNanos()).isCloseTo((event(2) - event(1)) / 2.0, within(1e-6));
    }

    @Test
    void should_keep_the_client_count_when_usage_reports_zero_reasoning_tokens_beside_streamed_reasoning() {
        RequestRecord record = replay("""
                data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning":"a"},"finish_reason":null}]}

                data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}]}

                data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"completion_tokens_details":{"reasoning_tokens":0}}}

                data: [DONE]

                """);

        assertThat(record.streamPhases().reasoningTokens()).isEqualTo(1);
        assertThat(record.streamPhases().reasoningTokenSource()).isEqualTo(TokenCountSource.CONTENT_EVENTS);
    }

    /** Feeds the stream one event per read: event {@code i} at {@link #event(int)}. */
    private RequestRecord replay(String text) {
        InFlightRequest request = new InFlightRequest(
                0,
                Phase.MEASURED,
                RequestSpec.chat(List.of(dev.goodput.core.workload.ChatMessage.user("q")), 200),
                0,
                StreamSettings.of(true),
                RetryRule.NEVER,
                new RequestListener() {
                    @Override
                    public void retrying(InFlightRequest retried, long waitNanos) {
                        throw new AssertionError("no retries");
                    }

                    @Override
                    public void finished(InFlightRequest ended, FinishedRequest handover) {
                        records.add(handover.record());
                    }
                });
        MeasuredAttempt attempt = request.send(1 * MS, false);
        attempt.onHeaders(200, "text/event-stream", 2 * MS);
        int i = 0;
        for (String event : text.split("(?<=\n\n)")) {
            attempt.onBytes(ByteBuffer.wrap(event.getBytes(StandardCharsets.UTF_8)), event(i++));
        }
        attempt.onEndOfStream(event(i));
        assertThat(records).hasSize(1);
        return records.get(0);
    }
}
