package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.record.ServerTimings;
import dev.goodput.core.transport.internal.sse.StreamChunk.Kind;
import dev.goodput.core.transport.internal.sse.StreamFixtures.Fixture;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Content, usage and finish reasons of every stream shape in {@code server-facts.md} §1. */
class ChunkDecoderTest {

    private final ChunkDecoder decoder = new ChunkDecoder();

    private StreamChunk decode(String data) {
        return decoder.decode(new SseEvent(null, data));
    }

    private static StreamChunk chunk(Kind kind, String text, int prompt, int completion, boolean last, String finish) {
        return new StreamChunk(kind, text, prompt, completion, last, finish, null, null);
    }

    private static StreamChunk content(String text) {
        return chunk(Kind.CONTENT, text, -1, -1, false, null);
    }

    /** A content chunk with its phases: reasoning text, answer text, tool-call index bits. */
    private static StreamChunk content(String text, boolean reasoning, boolean answer, long toolCalls) {
        return new StreamChunk(Kind.CONTENT, text, -1, -1, false, null, null, null, -1, reasoning, answer, toolCalls);
    }

    private static StreamChunk noContent() {
        return chunk(Kind.NO_CONTENT, "", -1, -1, false, null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[DONE]", " [DONE] ", "[DONE]\n", "\t[DONE]"})
    void should_read_done_ignoring_surrounding_whitespace(String data) {
        assertThat(decode(data)).isEqualTo(new StreamChunk(Kind.DONE, "", -1, -1, false, null, null, null));
    }

    @Test
    void should_read_a_vllm_role_only_first_chunk_as_no_content() {
        assertThat(decode("""
                    {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,\
                    "delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}""")).isEqualTo(noContent());
    }

    @Test
    void should_read_continuous_usage_on_a_chunk_with_choices_as_not_final() {
        assertThat(decode("""
                    {"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],\
                    "usage":{"prompt_tokens":12,"total_tokens":12,"completion_tokens":0}}""")).isEqualTo(chunk(Kind.NO_CONTENT, "", 12, 0, false, null));
        assertThat(decode("""
                    {"choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}],\
                    "usage":{"prompt_tokens":12,"total_tokens":13,"completion_tokens":1}}""")).isEqualTo(chunk(Kind.CONTENT, "Hello", 12, 1, false, null));
    }

    @Test
    void should_read_the_finish_reason_of_the_last_vllm_content_chunk() {
        assertThat(decode("""
                    {"choices":[{"index":0,"delta":{"content":" world"},"logprobs":null,\
                    "finish_reason":"stop","stop_reason":null}],"usage":null}""")).isEqualTo(chunk(Kind.CONTENT, " world", -1, -1, false, "stop"));
    }

    @Test
    void should_read_usage_with_empty_or_absent_choices_as_final() {
        assertThat(decode("{\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3}}"))
                .isEqualTo(chunk(Kind.NO_CONTENT, "", 12, 3, true, null));
        assertThat(decode("{\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}}"))
                .isEqualTo(chunk(Kind.NO_CONTENT, "", 12, 3, true, null));
        assertThat(decode("{\"choices\":null,\"usage\":{\"completion_tokens\":3}}"))
                .isEqualTo(chunk(Kind.NO_CONTENT, "", -1, 3, true, null));
    }

    @Test
    void should_read_a_completions_text_chunk() {
        assertThat(decode("""
                    {"id":"cmpl-1","object":"text_completion","created":1,"model":"m","choices":[{"index":0,\
                    "text":" The","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}""")).isEqualTo(content(" The"));
    }

    @Test
    void should_join_the_text_of_all_choices_and_keep_the_first_finish_reason() {
        assertThat(decode("""
                    {"choices":[{"index":0,"text":"a","finish_reason":null},\
                    {"index":1,"text":"b","finish_reason":"length"},{"index":2,"text":"c","finish_reason":"stop"}]}""")).isEqualTo(chunk(Kind.CONTENT, "abc", -1, -1, false, "length"));
    }

    @Test
    void should_count_reasoning_content_and_ollama_reasoning_as_content_of_the_reasoning_phase() {
        assertThat(decode("{\"choices\":[{\"delta\":{\"content\":null,\"reasoning_content\":\"Let\"}}]}"))
                .isEqualTo(content("Let", true, false, 0));
        assertThat(decode("{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning\":\"Hm\"}}]}"))
                .isEqualTo(content("Hm", true, false, 0));
        assertThat(decode("{\"choices\":[{\"delta\":{\"reasoning_content\":\"a\",\"content\":\"b\"}}]}"))
                .isEqualTo(content("ab", true, true, 0));
    }

    @Test
    void should_count_a_refusal_as_content_because_the_model_generated_it() {
        assertThat(decode("{\"choices\":[{\"delta\":{\"content\":null,\"refusal\":\"I can't\"}}]}"))
                .isEqualTo(content("I can't"));
    }

    @Test
    void should_read_a_llama_cpp_finish_chunk_with_empty_delta_and_timings_as_no_content() {
        assertThat(decode("""
                    {"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1,"id":"chatcmpl-x",\
                    "model":"m","system_fingerprint":"b6123","object":"chat.completion.chunk","timings":\
                    {"cache_n":3,"prompt_n":9,"prompt_ms":12.5,"predicted_n":2,"predicted_ms":30.1,\
                    "predicted_per_token_ms":30.1,"predicted_per_second":66.4}}"""))
                .isEqualTo(new StreamChunk(
                        Kind.NO_CONTENT,
                        "",
                        -1,
                        -1,
                        false,
                        "stop",
                        null,
                        new ServerTimings(3, 9, 12.5, 2, 30.1, 30.1)));
    }

    @Test
    void should_ignore_timings_of_an_unexpected_shape_or_without_both_parts() {
        assertThat(decode("{\"choices\":[],\"timings\":\"fast\"}").timings()).isNull();
        assertThat(decode("{\"choices\":[],\"timings\":{\"prompt_n\":\"9\",\"prompt_ms\":1,\"predicted_n\":2,"
                                + "\"predicted_ms\":3}}")
                        .timings())
                .isNull();
        assertThat(decode("{\"choices\":[],\"timings\":{\"prompt_n\":9,\"prompt_ms\":1.5}}")
                        .timings())
                .isNull();
    }

    @Test
    void should_read_tgi_chunks_with_empty_id_and_role_on_every_delta() {
        assertThat(decode("""
                    {"object":"chat.completion.chunk","id":"","created":1,"model":"tgi","system_fingerprint":"3.3.6",\
                    "choices":[{"index":0,"delta":{"role":"assistant","content":"Bon"},"logprobs":null,\
                    "finish_reason":null}],"usage":null}""")).isEqualTo(content("Bon"));
        assertThat(decode("""
                    {"object":"chat.completion.chunk","id":"","created":1,"model":"tgi","system_fingerprint":"3.3.6",\
                    "choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,\
                    "finish_reason":"eos_token"}],"usage":null}""")).isEqualTo(chunk(Kind.NO_CONTENT, "", -1, -1, false, "eos_token"));
    }

    @Test
    void should_read_null_content_and_missing_delta_as_no_content() {
        assertThat(decode("{\"choices\":[{\"delta\":{\"content\":null}}]}")).isEqualTo(noContent());
        assertThat(decode("{\"choices\":[{\"delta\":null,\"text\":null}]}")).isEqualTo(noContent());
        assertThat(decode("{\"choices\":[{\"index\":0}]}")).isEqualTo(noContent());
        assertThat(decode("{}")).isEqualTo(noContent());
        assertThat(decode("{\"error\":null,\"choices\":[]}")).isEqualTo(noContent());
    }

    @Test
    void should_count_tool_call_names_and_argument_fragments_as_content() {
        assertThat(decode("""
                    {"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,\
                    "id":"call_1","type":"function","function":{"name":"get_weather","arguments":""}}]},\
                    "finish_reason":null}]}""")).isEqualTo(content("get_weather", false, true, 1));
        assertThat(decode("""
                    {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\":"}},\
                    {"index":1,"function":{"name":"now","arguments":"{}"}}]},"finish_reason":null}]}""")).isEqualTo(content("{\"city\":now{}", false, true, 0b11));
        assertThat(decode("{\"choices\":[{\"delta\":{\"function_call\":{\"arguments\":\"{}\"}}}]}"))
                .isEqualTo(content("{}", false, true, 1));
    }

    @Test
    void should_read_a_tool_call_delta_without_name_or_arguments_as_no_content() {
        assertThat(decode("""
                    {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":null}},7,null]},\
                    "finish_reason":"tool_calls"}]}"""))
                .isEqualTo(new StreamChunk(
                        Kind.NO_CONTENT, "", -1, -1, false, "tool_calls", null, null, -1, false, false, 1));
    }

    @Test
    void should_read_reasoning_tokens_from_openai_completion_tokens_details() {
        StreamChunk usage = decode("{\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":50,"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":42,\"audio_tokens\":0}}}");
        assertThat(usage.reasoningTokens()).isEqualTo(42);
        assertThat(usage.completionTokens()).isEqualTo(50);
        assertThat(decode("{\"choices\":[],\"usage\":{\"completion_tokens_details\":null}}")
                        .reasoningTokens())
                .isEqualTo(-1);
        assertThat(decode("{\"choices\":[],\"usage\":{\"completion_tokens_details\":{\"reasoning_tokens\":-1}}}")
                        .kind())
                .as("a negative count is a malformed event, as for the other usage counts")
                .isEqualTo(Kind.MALFORMED);
    }

    @Test
    void should_tell_tool_calls_apart_by_index_and_read_tgis_single_call_object() {
        assertThat(decode(
                                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"arguments\":\"x\"}}]}}]}")
                        .toolCallIndexes())
                .isEqualTo(1L << 3);
        assertThat(decode("{\"choices\":[{\"delta\":{\"tool_calls\":{\"index\":0,\"function\":{\"name\":null,"
                        + "\"arguments\":\"{\\\"\"}}}}]}"))
                .isEqualTo(content("{\"", false, true, 1));
        assertThat(decode(
                                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":99999999999,\"function\":{\"name\":\"f\"}}]}}]}")
                        .toolCallIndexes())
                .as("an index beyond int is no index: the call's position names it")
                .isEqualTo(1L);
    }

    @Test
    void should_keep_multi_byte_text_intact() {
        assertThat(decode("{\"choices\":[{\"delta\":{\"content\":\"héllo 世界 🚀\"}}]}"))
                .isEqualTo(content("héllo 世界 🚀"));
        assertThat(decode("{\"choices\":[{\"delta\":{\"content\":\"\\u00e9\\ud83d\\ude80\"}}]}"))
                .isEqualTo(content("é🚀"));
    }

    static List<Fixture> fixtures() {
        return StreamFixtures.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void should_decode_every_event_of_a_whole_stream(Fixture fixture) throws Exception {
        RecordingListener listener = new RecordingListener();
        SseParser parser = new SseParser(listener);
        byte[] bytes = fixture.bytes();
        parser.feed(bytes, 0, bytes.length, 0);
        parser.finish(1);

        List<StreamChunk> chunks =
                listener.events().stream().map(decoder::decode).toList();

        assertThat(chunks).extracting(StreamChunk::kind).containsExactlyElementsOf(fixture.kinds());
        assertThat(chunks.stream()
                        .filter(chunk -> chunk.kind() == Kind.CONTENT)
                        .map(StreamChunk::text)
                        .reduce("", String::concat))
                .isEqualTo(fixture.content());
    }

    @Test
    void should_find_final_usage_only_on_the_usage_chunk_of_a_vllm_stream_with_continuous_usage() throws Exception {
        RecordingListener listener = new RecordingListener();
        byte[] bytes = StreamFixtures.VLLM_CHAT.bytes();
        new SseParser(listener).feed(bytes, 0, bytes.length, 0);

        List<StreamChunk> chunks =
                listener.events().stream().map(decoder::decode).toList();

        assertThat(chunks).extracting(StreamChunk::finalUsage).containsExactly(false, false, false, false, true, false);
        assertThat(chunks).extracting(StreamChunk::completionTokens).containsExactly(0, 1, 2, 3, 3, -1);
        assertThat(chunks).extracting(StreamChunk::finishReason).containsExactly(null, null, null, "stop", null, null);
    }
}
