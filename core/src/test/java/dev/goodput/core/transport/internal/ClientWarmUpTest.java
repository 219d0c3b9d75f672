package dev.goodput.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientWarmUpTest {

    @Test
    void should_parse_every_synthetic_stream_to_a_successful_record() {
        // run() throws if any stream fails to parse, so a change to the parser or decoder that the warm-up's
        // vLLM-shaped streams no longer satisfy is caught here rather than at the first real run.
        assertThat(ClientWarmUp.run(4)).isEqualTo(4 * 66);
    }
}
