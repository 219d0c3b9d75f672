package dev.goodput.testcontainers;

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
 * Runs the annotated class or method only when Testcontainers can reach a container engine (Docker, or Podman
 * through its Docker-compatible socket named by {@code DOCKER_HOST}); otherwise skips it with a message that
 * says so. A build on a machine without an engine then passes with these tests skipped instead of failing.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ContainerEngineCondition.class)
public @interface EnabledIfContainerEngine {}
