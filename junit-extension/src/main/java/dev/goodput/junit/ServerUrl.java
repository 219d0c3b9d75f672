package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test against an OpenAI-compatible server that is already running.
 *
 * <p>Where the server under test comes from, first match wins:
 *
 * <ol>
 *   <li>the configuration parameter {@code goodput.server.url} (with {@code goodput.server.model},
 *       {@code goodput.server.api-key-env} and {@code goodput.server.api-base-path});
 *   <li>a server named in code: a static field annotated {@link ServerUnderTest}, or {@code @ServerUrl} on the
 *       method, then on the class;
 *   <li>{@link SimulatedServer} on the method, then on the class;
 *   <li>the embedded simulated server with its default preset.
 * </ol>
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(GoodputExtension.class)
public @interface ServerUrl {

    /** The server's root URL, for example {@code http://127.0.0.1:8000}. */
    String value();

    /** The model name to request. */
    String model();

    /**
     * The environment variable holding the API key, sent as a bearer token; empty for none. The key itself is
     * never written anywhere.
     */
    String apiKeyEnv() default "";

    /**
     * The path under the URL where the OpenAI-compatible API is served: {@code "/v1"} by default, {@code ""} for a
     * server that serves it at its root. The configuration parameter is {@code goodput.server.api-base-path}.
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    String apiBasePath() default "/v1";
}
