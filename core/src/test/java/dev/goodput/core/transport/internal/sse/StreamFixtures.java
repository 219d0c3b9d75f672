package dev.goodput.core.transport.internal.sse;

import static dev.goodput.core.transport.internal.sse.StreamChunk.Kind.CONTENT;
import static dev.goodput.core.transport.internal.sse.StreamChunk.Kind.DONE;
import static dev.goodput.core.transport.internal.sse.StreamChunk.Kind.ERROR;
import static dev.goodput.core.transport.internal.sse.StreamChunk.Kind.NO_CONTENT;

import dev.goodput.core.transport.internal.sse.StreamChunk.Kind;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Whole response streams as the servers Goodput measures send them, written by hand after the formats in
 * {@code server-facts.md} §1, each with what decoding its events must give.
 */
final class StreamFixtures {

    /**
     * One stream.
     *
     * @param name what the stream imitates
     * @param text the body as sent
     * @param kinds the kind of each event, in order
     * @param content the text of all content events joined
     */
    record Fixture(String name, String text, List<Kind> kinds, String content) {

        byte[] bytes() {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private StreamFixtures() {}

    static final Fixture VLLM_CHAT = new Fixture(
            "vLLM chat, role-only first chunk, continuous usage, usage chunk",
            """
            data: {"id":"chatcmpl-9f1","object":"chat.completion.chunk","created":1763700000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":12,"total_tokens":12,"completion_tokens":0}}

            data: {"id":"chatcmpl-9f1","object":"chat.completion.chunk","created":1763700000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":12,"total_tokens":13,"completion_tokens":1}}

            data: {"id":"chatcmpl-9f1","object":"chat.completion.chunk","created":1763700000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":","},"logprobs":null,"finish_reason":null}],"usage":{"prompt_tokens":12,"total_tokens":14,"completion_tokens":2}}

            data: {"id":"chatcmpl-9f1","object":"chat.completion.chunk","created":1763700000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[{"index":0,"delta":{"content":" world"},"logprobs":null,"finish_reason":"stop","stop_reason":null}],"usage":{"prompt_tokens":12,"total_tokens":15,"completion_tokens":3}}

            data: {"id":"chatcmpl-9f1","object":"chat.completion.chunk","created":1763700000,"model":"meta-llama/Llama-3.1-8B-Instruct","choices":[],"usage":{"prompt_tokens":12,"total_tokens":15,"completion_tokens":3}}

            data: [DONE]

            """,
            List.of(NO_CONTENT, CONTENT, CONTENT, CONTENT, NO_CONTENT, DONE),
            "Hello, world");

    static final Fixture VLLM_COMPLETIONS =
            new Fixture("vLLM completions", """
            data: {"id":"cmpl-4c2","object":"text_completion","created":1763700001,"model":"Qwen/Qwen2.5-0.5B","choices":[{"index":0,"text":" The","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}

            data: {"id":"cmpl-4c2","object":"text_completion","created":1763700001,"model":"Qwen/Qwen2.5-0.5B","choices":[{"index":0,"text":" sky","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}

            data: {"id":"cmpl-4c2","object":"text_completion","created":1763700001,"model":"Qwen/Qwen2.5-0.5B","choices":[{"index":0,"text":" is","logprobs":null,"finish_reason":"length","stop_reason":null}],"usage":null}

            data: {"id":"cmpl-4c2","object":"text_completion","created":1763700001,"model":"Qwen/Qwen2.5-0.5B","choices":[],"usage":{"prompt_tokens":5,"total_tokens":8,"completion_tokens":3}}

            data: [DONE]

            """, List.of(CONTENT, CONTENT, CONTENT, NO_CONTENT, DONE), " The sky is");

    static final Fixture LLAMA_CPP = new Fixture(
            "llama.cpp, separate finish chunk, timings on the usage chunk",
            """
            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Hi"}}],"created":1763700002,"id":"chatcmpl-Xa7","model":"gpt-3.5-turbo","system_fingerprint":"b6123-1a2b3c4d","object":"chat.completion.chunk"}

            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":" there"}}],"created":1763700002,"id":"chatcmpl-Xa7","model":"gpt-3.5-turbo","system_fingerprint":"b6123-1a2b3c4d","object":"chat.completion.chunk"}

            data: {"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1763700002,"id":"chatcmpl-Xa7","model":"gpt-3.5-turbo","system_fingerprint":"b6123-1a2b3c4d","object":"chat.completion.chunk"}

            data: {"choices":[],"created":1763700002,"id":"chatcmpl-Xa7","model":"gpt-3.5-turbo","system_fingerprint":"b6123-1a2b3c4d","object":"chat.completion.chunk","usage":{"completion_tokens":2,"prompt_tokens":9,"total_tokens":11},"timings":{"cache_n":0,"prompt_n":9,"prompt_ms":12.5,"prompt_per_token_ms":1.39,"prompt_per_second":720.0,"predicted_n":2,"predicted_ms":30.1,"predicted_per_token_ms":15.05,"predicted_per_second":66.4}}

            data: [DONE]

            """,
            List.of(CONTENT, CONTENT, NO_CONTENT, NO_CONTENT, DONE),
            "Hi there");

    static final Fixture TGI = new Fixture(
            "TGI, empty ids, role on every delta, no space after data:, keep-alive comment",
            """
            data:{"object":"chat.completion.chunk","id":"","created":1763700003,"model":"tgi","system_fingerprint":"3.3.6-sha-0a1b2c3","choices":[{"index":0,"delta":{"role":"assistant","content":"Bonjour"},"logprobs":null,"finish_reason":null}],"usage":null}

            : keep-alive

            data:{"object":"chat.completion.chunk","id":"","created":1763700003,"model":"tgi","system_fingerprint":"3.3.6-sha-0a1b2c3","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}],"usage":null}

            data:{"object":"chat.completion.chunk","id":"","created":1763700003,"model":"tgi","system_fingerprint":"3.3.6-sha-0a1b2c3","choices":[{"index":0,"delta":{"role":"assistant","content":" !"},"logprobs":null,"finish_reason":"eos_token"}],"usage":null}

            data:{"object":"chat.completion.chunk","id":"","created":1763700003,"model":"tgi","system_fingerprint":"3.3.6-sha-0a1b2c3","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}}

            data:[DONE]

            """,
            List.of(CONTENT, NO_CONTENT, CONTENT, NO_CONTENT, DONE),
            "Bonjour !");

    static final Fixture SGLANG_CRLF = new Fixture(
            "SGLang with matched_stop, behind a proxy that writes CRLF line ends",
            """
            data: {"id":"5e1f","object":"chat.completion.chunk","created":1763700004,"model":"default","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning_content":null,"tool_calls":null},"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}

            data: {"id":"5e1f","object":"chat.completion.chunk","created":1763700004,"model":"default","choices":[{"index":0,"delta":{"role":null,"content":null,"reasoning_content":"Think","tool_calls":null},"logprobs":null,"finish_reason":null,"matched_stop":null}],"usage":null}

            data: {"id":"5e1f","object":"chat.completion.chunk","created":1763700004,"model":"default","choices":[{"index":0,"delta":{"role":null,"content":"Yes","reasoning_content":null,"tool_calls":null},"logprobs":null,"finish_reason":"stop","matched_stop":128009}],"usage":null}

            data: {"id":"5e1f","object":"chat.completion.chunk","created":1763700004,"model":"default","choices":[],"usage":{"prompt_tokens":20,"total_tokens":22,"completion_tokens":2,"prompt_tokens_details":null}}

            data: [DONE]

            """.replace("\n", "\r\n"),
            List.of(NO_CONTENT, CONTENT, CONTENT, NO_CONTENT, DONE),
            "ThinkYes");

    static final Fixture VLLM_ERROR_IN_200 = new Fixture(
            "vLLM error after HTTP 200, then [DONE], with CR line ends",
            """
            data: {"id":"chatcmpl-e1","object":"chat.completion.chunk","created":1763700005,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}

            data: {"id":"chatcmpl-e1","object":"chat.completion.chunk","created":1763700005,"model":"m","choices":[{"index":0,"delta":{"content":"Par"},"logprobs":null,"finish_reason":null}]}

            data: {"error":{"message":"The decoder prompt (length 9000) is longer than the maximum model length of 8192.","type":"BadRequestError","param":null,"code":400}}

            data: [DONE]

            """.replace("\n", "\r"),
            List.of(NO_CONTENT, CONTENT, ERROR, DONE),
            "Par");

    static final Fixture LLAMA_CPP_ERROR_FIELD =
            new Fixture("older llama.cpp sending an error: field instead of data:", """
            data: {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Ok"}}],"created":1763700006,"id":"chatcmpl-q","model":"m","object":"chat.completion.chunk"}

            error: {"code":500,"message":"slot unavailable","type":"server_error"}

            """, List.of(CONTENT, ERROR), "Ok");

    static final Fixture MISSING_DONE = new Fixture(
            "a stream cut after the last content chunk, without a final blank line or [DONE]",
            """
            data: {"id":"c","object":"chat.completion.chunk","created":1763700007,"model":"m","choices":[{"index":0,"delta":{"content":"one"},"finish_reason":null}]}

            data: {"id":"c","object":"chat.completion.chunk","created":1763700007,"model":"m","choices":[{"index":0,"delta":{"content":" two"},"finish_reason":null}]}""",
            List.of(CONTENT, CONTENT),
            "one two");

    static final Fixture MULTIBYTE_WITH_BOM = new Fixture(
            "multi-byte UTF-8 text after a byte order mark, an event: line and multi-line data",
            "\uFEFF" + """
            event: message
            data: {"id":"u","object":"chat.completion.chunk","created":1763700008,"model":"m","choices":[{"index":0,"delta":{"content":"héllo "},"finish_reason":null}]}

            data: {"id":"u","object":"chat.completion.chunk","created":1763700008,"model":"m",
            data: "choices":[{"index":0,"delta":{"content":"世界 "},"finish_reason":null}]}

            data: {"id":"u","object":"chat.completion.chunk","created":1763700008,"model":"m","choices":[{"index":0,"delta":{"content":"🚀"},"finish_reason":"stop"}]}

            data: [DONE]
            """,
            List.of(CONTENT, CONTENT, CONTENT, DONE),
            "héllo 世界 🚀");

    static final Fixture OLLAMA_REASONING = new Fixture(
            "Ollama with reasoning deltas and role on every delta",
            """
            data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1763700009,"model":"qwen3:0.6b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"Hmm"},"finish_reason":null}]}

            data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1763700009,"model":"qwen3:0.6b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":"4"},"finish_reason":null}]}

            data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1763700009,"model":"qwen3:0.6b","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}]}

            data: [DONE]

            """,
            List.of(CONTENT, CONTENT, NO_CONTENT, DONE),
            "Hmm4");

    static List<Fixture> all() {
        return List.of(
                VLLM_CHAT,
                VLLM_COMPLETIONS,
                LLAMA_CPP,
                TGI,
                SGLANG_CRLF,
                VLLM_ERROR_IN_200,
                LLAMA_CPP_ERROR_FIELD,
                MISSING_DONE,
                MULTIBYTE_WITH_BOM,
                OLLAMA_REASONING);
    }
}
