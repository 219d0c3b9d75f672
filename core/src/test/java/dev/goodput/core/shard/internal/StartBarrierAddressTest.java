package dev.goodput.core.shard.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.InvalidSettingException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StartBarrierAddressTest {

    private static final String FIELD = "goodput.shard.barrier";

    @Test
    void should_parse_host_and_port_without_resolving_the_host() {
        InetSocketAddress address = StartBarrier.parseAddress("goodput-shard-0.goodput:7000", FIELD);

        assertThat(address.getHostString()).isEqualTo("goodput-shard-0.goodput");
        assertThat(address.getPort()).isEqualTo(7000);
        assertThat(address.isUnresolved()).isTrue();
    }

    @Test
    void should_parse_a_bracketed_ipv6_address() {
        InetSocketAddress address = StartBarrier.parseAddress("[::1]:7000", FIELD);

        assertThat(address.getHostString()).isEqualTo("::1");
        assertThat(address.getPort()).isEqualTo(7000);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "shard-0",
                "shard-0:",
                ":7000",
                "shard-0:http",
                "shard-0:0",
                "shard-0:70000",
                "::1:7000",
                "shard 0:7000"
            })
    void should_refuse_a_malformed_address_naming_the_field_and_the_value(String value) {
        assertThatThrownBy(() -> StartBarrier.parseAddress(value, FIELD))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith(FIELD + " = " + value + " must be host:port");
    }

    @Test
    void should_refuse_a_missing_address_naming_the_field() {
        assertThatThrownBy(() -> StartBarrier.parseAddress(null, FIELD))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageStartingWith(FIELD + " = null must be host:port");
    }

    @Test
    void should_refuse_settings_out_of_range_naming_the_setting_and_the_value() {
        BarrierSettings defaults = BarrierSettings.defaults();

        assertThat(defaults)
                .isEqualTo(
                        new BarrierSettings(Duration.ofMinutes(5), Duration.ofSeconds(2), 8, Duration.ofMillis(200)));
        assertThatThrownBy(() -> defaults.withTimeout(Duration.ZERO)).hasMessage("timeout = 0 s must be positive");
        assertThatThrownBy(() -> defaults.withStartMargin(Duration.ofMillis(-1)))
                .hasMessage("startMargin = -1 ms must be zero or positive");
        assertThatThrownBy(() -> defaults.withClockSamples(0)).hasMessage("clockSamples = 0 must be at least 1");
        assertThatThrownBy(() -> defaults.withRetryBackoff(null)).hasMessage("retryBackoff = null must be positive");
        assertThat(defaults.withStartMargin(Duration.ZERO).startMargin()).isZero();
    }
}
