package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Units;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/**
 * The one refusal of a bad setting in Goodput's public API: a value given to a constructor, factory or builder of
 * a run (a load, an objective, a workload, a server endpoint, the run itself, ...) that is out of range, missing or
 * does not fit another setting. It carries what it refuses as data, so that a front end such as the JUnit extension
 * can say the same in its own vocabulary (an annotation attribute) without checking anything again and without
 * reading the message:
 *
 * <ul>
 *   <li>{@link #settings()}: every setting involved, by the name its builder method or component has
 *       ({@code requests}, {@code warmupRequests}, {@code duration}, ...), the one the refusal is about first;
 *   <li>{@link #value()} and {@link #requirement()}: the refused value of a single setting and what it must be;
 *   <li>{@link #message(UnaryOperator)}: the message with each setting named as the caller names it.
 * </ul>
 *
 * <p>A message about one setting reads {@code <setting> = <value> <requirement>}, for example
 * {@code "retries = 11 must be between 0 and 10"}; a message about settings that do not fit together names each of
 * them ({@code "warmupRequests (10) + cooldownRequests (0) leave no measured request of requests (10)"}).
 *
 * <p>It extends {@link IllegalArgumentException}, so code that catches that catches this too. A {@code null} where
 * a value is required stays a {@link NullPointerException} naming the parameter, as {@link
 * java.util.Objects#requireNonNull(Object, String)} throws it, except where {@code null} is a value a setting
 * refuses by name (a refused selection, say). What is not a setting stays an {@code IllegalArgumentException}: a
 * lookup of something a result does not hold, an index out of range, the contents of a file that cannot be read.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final List<String> settings;
    private final transient Object value;
    private final String requirement;
    private final transient Function<UnaryOperator<String>, String> wording;

    private InvalidSettingException(
            List<String> settings, Object value, String requirement, Function<UnaryOperator<String>, String> wording) {
        super(wording.apply(UnaryOperator.identity()));
        this.settings = List.copyOf(settings);
        this.value = value;
        this.requirement = requirement;
        this.wording = wording;
    }

    /**
     * One setting whose value is refused: {@code "<setting> = <value> <requirement>"}, for example
     * {@code of("retries", 11, "must be between 0 and 10")}. The value may be {@code null} (a required setting left
     * out).
     */
    public static InvalidSettingException of(String setting, Object value, String requirement) {
        return new InvalidSettingException(
                List.of(setting),
                value,
                requirement,
                name -> name.apply(setting) + " = " + Units.formatValue(value) + " " + requirement);
    }

    /**
     * Settings that are missing or do not fit together, with a message that does not depend on how they are
     * named; prefer {@link #conflict(Function, String...)}, whose message a front end can word in its own names.
     */
    public static InvalidSettingException conflict(String message, String... settings) {
        return new InvalidSettingException(List.of(settings), null, null, name -> message);
    }

    /**
     * Settings that are missing or do not fit together. {@code wording} makes the message from a function that
     * names a setting: it calls {@code name.apply("warmupRequests")} where the message names that setting, so
     * {@link #message(UnaryOperator)} can name it otherwise. {@code settings} lists the settings involved, the one
     * the refusal is about first.
     */
    public static InvalidSettingException conflict(
            Function<UnaryOperator<String>, String> wording, String... settings) {
        return new InvalidSettingException(List.of(settings), null, null, wording);
    }

    /** Returns the settings involved, by their builder names; the first is the one the refusal is about. */
    public List<String> settings() {
        return settings;
    }

    /** Returns the setting the refusal is about: the first of {@link #settings()}. */
    public String setting() {
        return settings.get(0);
    }

    /**
     * Returns the refused value of a single setting as it was given (a {@code Duration}, a number, a string, or
     * {@code null} when a required setting is left out), or {@code null} for settings that do not fit together.
     * The value is not serialized.
     */
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

    /**
     * Returns the message with each setting it names named by {@code name} (given a builder name such as
     * {@code "duration"}, it returns the name to show, such as {@code "durationSeconds"}); {@code getMessage()} is
     * this with every builder name kept. A message made with {@link #conflict(String, String...)}, or read back from
     * a serialized exception, is returned as it is.
     */
    public String message(UnaryOperator<String> name) {
        return wording == null ? getMessage() : wording.apply(name);
    }
}
