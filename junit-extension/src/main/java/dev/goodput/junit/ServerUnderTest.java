package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a static field that holds the server under test: a {@link dev.goodput.core.ServerEndpoint}, a {@link
 * dev.goodput.mock.MockServer} the class started itself (for example to read its ground truth), or a {@link
 * dev.goodput.core.StartableServer} such as {@code VllmContainer} or {@code GoodputMockServerContainer} from
 * {@code goodput-testcontainers}.
 *
 * <p>The field is read when the first test of the class runs. An endpoint or a mock server is owned by the class,
 * which closes it. A startable server that is not yet running is started then, reused by every test of the class,
 * and stopped when the class is done (in an instance field: per test instance); one that is already running is
 * used as it is and left running. Its {@linkplain dev.goodput.core.ServerEndpoint#metadata() metadata} (image,
 * tag, engine arguments) is recorded in each run's JSON result.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(GoodputExtension.class)
public @interface ServerUnderTest {}
