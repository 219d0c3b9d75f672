package dev.goodput.junit;

import dev.goodput.core.InvalidSettingException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Says a core setting's refusal in the words of the annotation the user wrote, as JUnit's {@code TimeoutDuration}
 * does for {@code @Timeout}. The core checks every value once; this class only knows which annotation attribute
 * carries which core setting and what the user wrote there, so {@code duration = -5 s must be positive} becomes
 * {@code @LoadProfile on X.m(): durationSeconds = -5.0 must be positive}.
 */
final class AnnotationSettings {

    private final String prefix;
    private final Map<String, Attribute> bySetting = new LinkedHashMap<>();

    /** An annotation attribute: its name and the value written in the test. */
    private record Attribute(String name, Object written) {}

    /**
     * @param annotation how the user wrote the annotation, for example {@code "@LoadProfile"}
     * @param where the test, for example {@code "ChatGate.chat()"}
     */
    AnnotationSettings(String annotation, String where) {
        this.prefix = annotation + " on " + where + ": ";
    }

    /** Declares that {@code attribute}, written as {@code written}, carries the core setting {@code setting}. */
    AnnotationSettings map(String setting, String attribute, Object written) {
        bySetting.put(setting, new Attribute(attribute, written));
        return this;
    }

    /** Runs {@code action}, turning a refused setting into a failure that names the attribute and its value. */
    <T> T apply(Supplier<T> action) {
        try {
            return action.get();
        } catch (InvalidSettingException e) {
            throw new ExtensionConfigurationException(prefix + translate(e), e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ExtensionConfigurationException(prefix + e.getMessage(), e);
        }
    }

    /** Returns a failure of this annotation with the given detail. */
    ExtensionConfigurationException refusal(String detail) {
        return new ExtensionConfigurationException(prefix + detail);
    }

    /**
     * Converts an attribute in seconds to a duration; a value that is not finite cannot become one and is refused
     * here, everything else is the core's to check.
     */
    Duration seconds(String attribute, double seconds) {
        if (!Double.isFinite(seconds)) {
            throw refusal(attribute + " = " + seconds + " must be a finite number of seconds");
        }
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }

    /**
     * Words a refusal from its data: a single mapped setting as the attribute and the value the user wrote there,
     * anything else as the core's message with each mapped setting named by its attribute.
     */
    private String translate(InvalidSettingException e) {
        Attribute single = bySetting.get(e.setting());
        if (e.isSingleValue() && single != null) {
            return single.name() + " = " + single.written() + " " + e.requirement();
        }
        return e.message(setting -> {
            Attribute attribute = bySetting.get(setting);
            return attribute == null ? setting : attribute.name();
        });
    }
}
