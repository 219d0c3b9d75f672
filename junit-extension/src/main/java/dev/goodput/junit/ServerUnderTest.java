package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * Marks a static field that holds the server under test: a {@link dev.goodput.core.ServerEndpoint}, or a
 * {@link dev.goodput.mock.MockServer} the class started itself (for example to read its ground truth). The
 * field is read when the first test of the class runs; the class owns what the field holds and closes it.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ServerUnderTest {}
