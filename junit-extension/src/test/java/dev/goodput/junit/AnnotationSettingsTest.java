package dev.goodput.junit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.load.Load;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** A refusal is worded from the exception's data (setting, value, requirement), never from its message's text. */
class AnnotationSettingsTest {

    private final AnnotationSettings settings = new AnnotationSettings("@LoadProfile", "X.m()")
            .map("duration", "durationSeconds", 2.0)
            .map("warmup", "warmupSeconds", 2.0)
            .map("cooldown", "cooldownSeconds", 0.0);

    @Test
    void should_word_a_single_value_from_the_attribute_and_what_the_user_wrote() {
        assertThatThrownBy(() -> settings.apply(() -> Load.poisson(1).duration(Duration.ofSeconds(-2))))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("@LoadProfile on X.m(): durationSeconds = 2.0 must be positive");
    }

    @Test
    void should_name_each_setting_of_a_conflict_by_its_attribute() {
        assertThatThrownBy(() -> settings.apply(
                        () -> Load.poisson(1).duration(Duration.ofSeconds(2)).warmup(Duration.ofSeconds(2))))
                .hasMessage("@LoadProfile on X.m(): warmupSeconds (2 s) + cooldownSeconds (0 s) leave no measured time"
                        + " of durationSeconds (2 s)");
    }

    @Test
    void should_rename_only_what_the_core_names_as_a_setting_not_words_in_the_text() {
        InvalidSettingException refusal = InvalidSettingException.conflict(
                name -> "a duration limit (" + name.apply("duration") + ") is needed", "duration");

        assertThatThrownBy(() -> settings.apply(() -> {
                    throw refusal;
                }))
                .hasMessage("@LoadProfile on X.m(): a duration limit (durationSeconds) is needed");
    }
}
