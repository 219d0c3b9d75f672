package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Units;
import java.util.List;
import org.apiguardian.api.API;

/**
 * A setting of a run (a load, an objective, a workload or the run itself) that is out of range or does not fit
 * another setting. The message names every setting involved by its builder name ({@code requests},
 * {@code warmupRequests}, {@code duration}, ...) so that a front end such as the JUnit extension can say the same
 * in its own vocabulary (an annotation attribute) without checking anything again.
 *
 * <p>A message about one setting reads {@code <setting> = <value> <requirement>}, for example
 * {@code "retries = 11 must be between 0 and 10"}; {@link #value()} and {@link #requirement()} hold its parts.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final List<String> settings;
    private final transient Object value;
    private final String requirement;

    private InvalidSettingException(String message, List<String> settings, Object value, String requirement) {
        super(message);
        this.settings = List.copyOf(settings);
        this.value = value;
        this.requirement = requirement;
    }

    /** One setting whose value is out of range: {@code "<setting> = <value> <requirement>"}. */
    public static InvalidSettingException of(String setting, Object value, String requirement) {
        return new InvalidSettingException(
                setting + " = " + Units.formatValue(value) + " " + requirement, List.of(setting), value, requirement);
    }

    /** Settings that do not fit together; {@code message} names each of them by its builder name. */
    public static InvalidSettingException conflict(String message, String... settings) {
        return new InvalidSettingException(message, List.of(settings), null, null);
    }

    /** Returns the settings involved, by their builder names; the first is the one the message is about. */
    public List<String> settings() {
        return settings;
    }

    /** Returns the refused value of a single setting, or {@code null} for a conflict between settings. */
    public Object value() {
        return value;
    }

    /** Returns what a single setting's value must be ("must be positive"), or {@code null} for a conflict. */
    public String requirement() {
        return requirement;
    }

    /** Returns whether this is about one setting's value rather than settings that do not fit together. */
    public boolean isSingleValue() {
        return requirement != null;
    }
}
