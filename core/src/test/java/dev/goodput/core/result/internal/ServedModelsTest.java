package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which streams named another model than the one asked for, bounded whatever the names. */
class ServedModelsTest {

    @Test
    void should_say_nothing_when_every_stream_named_the_model_asked_for_or_named_none() {
        ServedModels served = new ServedModels();
        served.add("meta-llama/Llama-3.1-8B-Instruct");
        served.add(null);

        assertThat(served.note("meta-llama/Llama-3.1-8B-Instruct")).isEmpty();
    }

    @Test
    void should_take_a_tag_or_a_dated_snapshot_of_the_asked_model_for_that_model() {
        assertThat(ServedModels.standsFor("llama3:latest", "llama3")).isTrue();
        assertThat(ServedModels.standsFor("gpt-4o-2024-08-06", "gpt-4o")).isTrue();
        assertThat(ServedModels.standsFor("gpt-4o-mini", "gpt-4o")).isFalse();
        assertThat(ServedModels.standsFor("tiny4", "llama")).isFalse();
    }

    @Test
    void should_count_the_streams_that_named_another_model_and_name_at_most_five() {
        ServedModels served = new ServedModels();
        served.add("asked");
        for (int i = 0; i < 7; i++) {
            served.add("other" + i);
        }
        served.add("other0");

        assertThat(served.note("asked"))
                .hasValue("8 of 9 streams that named their model named another than the `asked` asked for:"
                        + " `other0` (2), `other1` (1), `other2` (1), `other3` (1) and 3 naming others; the server may"
                        + " serve whatever it has loaded (the preflight checks its model list)");
    }
}
