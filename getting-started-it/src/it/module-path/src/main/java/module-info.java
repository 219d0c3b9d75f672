/**
 * A user's gates as a named module that requires Goodput's modules by the names their jars give. Open, so that JUnit
 * may reflect into the test classes Surefire patches into it. JUnit itself stays on the class path, where Surefire's
 * launcher is (a JUnit on both paths fails with IllegalAccessError), and {@code java.net.http} and
 * {@code jdk.httpserver} are the JDK modules Goodput's client and simulated server use, which an automatic module
 * cannot require itself (docs/release.md#module-names).
 */
open module com.example.gates {
    requires dev.goodput.junit;
    requires dev.goodput.core;
    requires dev.goodput.mock;
    requires java.net.http;
    requires jdk.httpserver;
}
