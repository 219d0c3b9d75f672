package dev.goodput.junit.jupiter6;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Proves this module really runs the extension's tests on Jupiter 6, not on the 5.14 the extension compiles against. */
class JupiterVersionTest {

    @Test
    void should_run_on_jupiter_6() {
        String version = Test.class.getPackage().getImplementationVersion();
        assertThat(version).startsWith("6.");
    }
}
