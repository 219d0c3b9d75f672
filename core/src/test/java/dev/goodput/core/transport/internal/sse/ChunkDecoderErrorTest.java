package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.transport.internal.sse.StreamChunk.Kind;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** In-band errors and malformed events, for every shape the servers in {@code server-facts.md} send. */
class ChunkDecoderErrorTest {

    private final ChunkDecoder decoder = new ChunkDecoder();

    private StreamChunk decode(String data) {
        return decoder.decode(new SseEvent(null, data));
    }

    private static StreamChunk error(String detail) {
        return new StreamChunk(Kind.ERROR, "", -1, -1, false, null, detail, null);
    }

    @Nested
    class Errors {

        @Test
        void should_read_a_vllm_error_object_with_type_and_code() {
            assertThat(decode("""
                    {"error":{"message":"The decoder prompt is longer than the maximum model length of 8192.",\
                    "type":"BadRequestError","param":null,"code":400}}"""))
                    .isEqualTo(error("The decoder prompt is longer than the maximum model length of 8192."
                            + " (type: BadRequestError, code: 400)"));
        }

        @Test
        void should_read_the_flat_error_of_older_vllm_and_sglang() {
            assertThat(decode("""
                    {"object":"error","message":"model not found","type":"NotFoundError","param":null,"code":404}""")).isEqualTo(error("model not found (type: NotFoundError, code: 404)"));
        }

        @Test
        void should_read_a_flat_error_nested_under_error() {
            assertThat(decode("""
                    {"error":{"object":"error","message":"boom","type":"InternalServerError","param":null,"code":500}}""")).isEqualTo(error("boom (type: InternalServerError, code: 500)"));
        }

        @Test
        void should_read_a_tgi_stream_error_with_http_status() {
            assertThat(decode(
                            "{\"error\":{\"message\":\"Input validation error: too long\",\"http_status_code\":422}}"))
                    .isEqualTo(error("Input validation error: too long (http status: 422)"));
        }

        @Test
        void should_read_a_tgi_error_string_with_error_type() {
            assertThat(decode(
                            "{\"error\":\"Request failed during generation: CUDA OOM\",\"error_type\":\"generation\"}"))
                    .isEqualTo(error("Request failed during generation: CUDA OOM (type: generation)"));
        }

        @Test
        void should_read_a_llama_cpp_error_whatever_the_field_order() {
            assertThat(
                            decode(
                                    "{\"error\":{\"code\":400,\"message\":\"context too long\",\"type\":\"exceed_context_size_error\"}}"))
                    .isEqualTo(error("context too long (type: exceed_context_size_error, code: 400)"));
        }

        @Test
        void should_read_an_ollama_error_with_null_code() {
            assertThat(
                            decode(
                                    "{\"error\":{\"message\":\"model \\\"x\\\" not found\",\"type\":\"api_error\",\"param\":null,\"code\":null}}"))
                    .isEqualTo(error("model \"x\" not found (type: api_error)"));
        }

        @Test
        void should_read_an_old_llama_cpp_error_event() {
            assertThat(decoder.decode(new SseEvent(
                            "error", "{\"code\":500,\"message\":\"slot unavailable\",\"type\":\"server_error\"}")))
                    .isEqualTo(error("slot unavailable (type: server_error, code: 500)"));
            assertThat(decoder.decode(new SseEvent("error", "{\"error\":{\"message\":\"nested\"}}")))
                    .isEqualTo(error("nested"));
        }

        @Test
        void should_read_a_named_error_event_of_any_server_as_an_error() throws Exception {
            RecordingListener listener = new RecordingListener();
            byte[] bytes = "event: error\ndata: {\"message\":\"overloaded\",\"code\":503}\n\n"
                    .getBytes(StandardCharsets.UTF_8);
            new SseParser(listener).feed(bytes, 0, bytes.length, 0);

            assertThat(listener.events()).map(decoder::decode).containsExactly(error("overloaded (code: 503)"));
        }

        @Test
        void should_read_an_error_event_whose_data_is_not_json_as_an_error_with_the_raw_text() {
            assertThat(decoder.decode(new SseEvent("error", " something broke ")))
                    .isEqualTo(error("something broke"));
            assertThat(decoder.decode(new SseEvent("error", "[DONE]"))).isEqualTo(error("[DONE]"));
            assertThat(decoder.decode(new SseEvent("error", ""))).isEqualTo(error("error event without data"));
        }

        @Test
        void should_quote_the_data_of_an_error_without_message() {
            assertThat(decode("{\"error\":{\"code\":503}}"))
                    .isEqualTo(error("error without a message: {\"error\":{\"code\":503}} (code: 503)"));
            assertThat(decode("{\"error\":{\"message\":{\"nested\":true}}}"))
                    .isEqualTo(error("error without a message: {\"error\":{\"message\":{\"nested\":true}}}"));
        }

        @Test
        void should_take_an_error_over_content_in_the_same_chunk() {
            assertThat(decode("{\"choices\":[{\"delta\":{\"content\":\"x\"}}],\"error\":{\"message\":\"late\"}}"))
                    .isEqualTo(error("late"));
        }

        @Test
        void should_truncate_a_very_long_error_message() {
            String message = "m".repeat(5000);

            StreamChunk chunk = decode("{\"error\":{\"message\":\"" + message + "\"}}");

            assertThat(chunk.kind()).isEqualTo(Kind.ERROR);
            assertThat(chunk.detail()).isEqualTo("m".repeat(1000) + "... (5000 chars)");
        }
    }

    @Nested
    class Malformed {

        private void assertMalformed(String data, String detail) {
            assertThat(decode(data)).isEqualTo(new StreamChunk(Kind.MALFORMED, "", -1, -1, false, null, detail, null));
        }

        @Test
        void should_report_data_that_is_not_json_with_position_and_excerpt() {
            StreamChunk chunk = decode("hello world");

            assertThat(chunk.kind()).isEqualTo(Kind.MALFORMED);
            assertThat(chunk.detail())
                    .startsWith("not valid JSON at character ")
                    .endsWith("): hello world");
        }

        @Test
        void should_report_truncated_json() {
            StreamChunk chunk = decode("{\"choices\":[{\"delta\":{\"content\":\"Hel");

            assertThat(chunk.kind()).isEqualTo(Kind.MALFORMED);
            assertThat(chunk.detail())
                    .startsWith("not valid JSON")
                    .endsWith(": {\"choices\":[{\"delta\":{\"content\":\"Hel");
        }

        @Test
        void should_report_empty_data() {
            assertMalformed("", "data is empty");
            assertMalformed("  ", "data is empty");
        }

        @Test
        void should_report_json_that_is_not_an_object() {
            assertMalformed("[1,2]", "not a JSON object: [1,2]");
            assertMalformed("\"text\"", "not a JSON object: \"text\"");
            assertMalformed("42", "not a JSON object: 42");
            assertMalformed("null", "not a JSON object: null");
        }

        @Test
        void should_report_trailing_content_after_the_object() {
            assertThat(decode("{} x").detail())
                    .startsWith("not valid JSON at character ")
                    .endsWith("): {} x");
            assertMalformed("{}{}", "trailing content after the JSON object: {}{}");
        }

        @Test
        void should_report_choices_that_are_not_an_array_of_objects() {
            assertMalformed("{\"choices\":{}}", "choices is not an array: {\"choices\":{}}");
            assertMalformed("{\"choices\":\"x\"}", "choices is not an array: {\"choices\":\"x\"}");
            assertMalformed("{\"choices\":[{},1]}", "choices[1] is not an object: {\"choices\":[{},1]}");
        }

        @Test
        void should_report_text_carriers_of_the_wrong_type() {
            assertMalformed(
                    "{\"choices\":[{\"delta\":\"x\"}]}",
                    "choices[0].delta is not an object: {\"choices\":[{\"delta\":\"x\"}]}");
            assertMalformed(
                    "{\"choices\":[{\"delta\":{\"content\":5}}]}",
                    "choices[0].delta.content is not a string: {\"choices\":[{\"delta\":{\"content\":5}}]}");
            assertMalformed(
                    "{\"choices\":[{\"text\":[\"a\"]}]}",
                    "choices[0].text is not a string: {\"choices\":[{\"text\":[\"a\"]}]}");
            assertMalformed(
                    "{\"choices\":[{\"finish_reason\":1}]}",
                    "choices[0].finish_reason is not a string: {\"choices\":[{\"finish_reason\":1}]}");
        }

        @Test
        void should_report_usage_counts_that_are_not_non_negative_integers() {
            assertMalformed("{\"usage\":[]}", "usage is not an object: {\"usage\":[]}");
            assertMalformed(
                    "{\"usage\":{\"completion_tokens\":\"3\"}}",
                    "usage.completion_tokens is not a non-negative integer: {\"usage\":{\"completion_tokens\":\"3\"}}");
            assertMalformed(
                    "{\"usage\":{\"prompt_tokens\":-1}}",
                    "usage.prompt_tokens is not a non-negative integer: {\"usage\":{\"prompt_tokens\":-1}}");
            assertMalformed(
                    "{\"usage\":{\"prompt_tokens\":1.5}}",
                    "usage.prompt_tokens is not a non-negative integer: {\"usage\":{\"prompt_tokens\":1.5}}");
            assertMalformed(
                    "{\"usage\":{\"prompt_tokens\":3000000000}}",
                    "usage.prompt_tokens is not a non-negative integer: {\"usage\":{\"prompt_tokens\":3000000000}}");
        }

        @Test
        void should_quote_at_most_120_characters_of_the_data_without_splitting_a_surrogate_pair() {
            String data = "[" + "x".repeat(118) + "🚀" + "y".repeat(100) + "]";

            StreamChunk chunk = decode(data);

            assertThat(chunk.detail()).isEqualTo("not a JSON object: [" + "x".repeat(118) + "... (222 chars)");
        }

        @Test
        void should_report_an_event_without_data() {
            assertThat(decoder.decode(null).detail()).isEqualTo("event has no data");
            assertThat(decoder.decode(new SseEvent("message", null)).detail()).isEqualTo("event has no data");
        }
    }
}
