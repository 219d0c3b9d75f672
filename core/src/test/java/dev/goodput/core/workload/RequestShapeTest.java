package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.transport.internal.RequestBodies;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestShapeTest {

    @Test
    void should_send_tools_with_tool_choice_required_in_every_request_body() {
        RequestShape shape = RequestShape.DEFAULT.withTools(List.of(RequestShape.LOOKUP_TOOL));
        RequestSpec spec = shape.request("a b c", 3, 5);

        String body = new String(RequestBodies.streamingBody(spec, "m", false), StandardCharsets.UTF_8);
        assertThat(body).contains("\"tool_choice\":\"required\"").contains("\"name\":\"lookup\"");
        assertThat(spec.ignoreEos()).isTrue();
        assertThat(shape.describe()).containsKey("extra_body");
        assertThat(RequestShape.DEFAULT.describe()).doesNotContainKey("extra_body");
        assertThat(RequestShape.DEFAULT.request("a", 1, 2).extraBody()).isEmpty();
    }

    @Test
    void should_refuse_tools_for_completions_and_an_empty_tool_list() {
        assertThatThrownBy(() -> new RequestShape(ApiKind.COMPLETIONS, true, 0, Map.of()).withTools(List.of(Map.of())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tools need api CHAT (tool calls are a chat feature), was COMPLETIONS");
        assertThatThrownBy(() -> RequestShape.DEFAULT.withTools(List.of()))
                .hasMessage("tools = [] must name at least one tool");
    }

    @Test
    void should_pass_other_body_fields_through() {
        RequestSpec spec = RequestShape.DEFAULT
                .withExtraBody(Map.of("chat_template_kwargs", Map.of("enable_thinking", false)))
                .request("a", 1, 2);
        assertThat(spec.extraBody()).containsEntry("chat_template_kwargs", Map.of("enable_thinking", false));
    }
}
