package dev.goodput.junit.assertions;

import org.assertj.core.description.Description;
import org.assertj.core.description.EmptyTextDescription;
import org.assertj.core.error.DescriptionFormatter;
import org.assertj.core.error.ErrorMessageFactory;
import org.assertj.core.presentation.Representation;

/**
 * A failure message whose text is complete when it is made. AssertJ's {@code BasicErrorMessageFactory} would
 * quote string arguments and read {@code %} as a format character, but Goodput's messages carry values that
 * are already formatted with their units, such as {@code "4.17 %"}. The description of {@code as(...)} is
 * still put in front, as AssertJ does.
 */
abstract class GoodputErrorMessage implements ErrorMessageFactory {

    private final String message;

    GoodputErrorMessage(String message) {
        this.message = message;
    }

    @Override
    public final String create(Description description, Representation representation) {
        return DescriptionFormatter.instance().format(description) + message;
    }

    @Override
    public final String create(Description description) {
        return create(description, null);
    }

    @Override
    public final String create() {
        return create(EmptyTextDescription.emptyDescription(), null);
    }

    @Override
    public final String toString() {
        return message;
    }
}
