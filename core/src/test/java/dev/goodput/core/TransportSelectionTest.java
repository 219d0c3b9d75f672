package dev.goodput.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.load.Load;
import dev.goodput.core.workload.WorkloadSpec;
import org.junit.jupiter.api.Test;

/** The one setting that chooses the HTTP client, checked where core alone is on the class path. */
class TransportSelectionTest {

    private final Goodput.RunBuilder run = Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "m"))
            .workload(WorkloadSpec.synthetic().inputTokens(4).outputTokens(4).build())
            .load(Load.concurrency(1).requests(1));

    @Test
    void should_send_with_the_jdk_client_unless_told_otherwise() {
        assertThat(run.build().transport()).isEqualTo("jdk");
    }

    @Test
    void should_refuse_an_unknown_transport_naming_the_setting_the_value_and_the_transports_available() {
        assertThatThrownBy(() -> run.transport("okhttp"))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessage("transport = okhttp must name a transport on the class path: one of jdk (the setting"
                        + " goodput.client.transport)");
    }

    @Test
    void should_say_which_dependency_to_add_for_netty_when_it_is_not_on_the_class_path() {
        assertThatThrownBy(() -> run.transport("netty"))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("transport = netty ")
                .hasMessageContaining("needs the dependency dev.goodput:goodput-transport-netty");
    }
}
