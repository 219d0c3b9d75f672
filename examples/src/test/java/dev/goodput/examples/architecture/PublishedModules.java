package dev.goodput.examples.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The modules users depend on, each with its root package and source folder, and their main classes imported once
 * for every architecture rule.
 */
enum PublishedModules {
    CORE("core", "dev.goodput.core"),
    MOCK_SERVER("mock-server", "dev.goodput.mock"),
    JUNIT_EXTENSION("junit-extension", "dev.goodput.junit"),
    TESTCONTAINERS("testcontainers", "dev.goodput.testcontainers");

    /** The repository root: surefire runs the examples' tests in the examples folder. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** Fewer classes than this in a module means the classpath is wrong, not that the module is clean. */
    private static final int FEWEST_CLASSES = 5;

    private static JavaClasses mainClasses;

    final String directory;
    final String rootPackage;

    PublishedModules(String directory, String rootPackage) {
        this.directory = directory;
        this.rootPackage = rootPackage;
    }

    /** Returns the main classes of every published module (nested, anonymous and synthetic ones included). */
    static synchronized JavaClasses mainClasses() {
        if (mainClasses == null) {
            JavaClasses imported = new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages(
                            Arrays.stream(values()).map(m -> m.rootPackage).toList());
            for (PublishedModules module : values()) {
                long count = imported.stream().filter(c -> module.contains(c)).count();
                if (count < FEWEST_CLASSES) {
                    throw new IllegalStateException("Only " + count + " main classes of " + module.directory
                            + " are on the examples' test classpath; the architecture rules would pass vacuously");
                }
            }
            mainClasses = imported;
        }
        return mainClasses;
    }

    /** Returns the module that holds {@code type}, if it is in a published module. */
    static Optional<PublishedModules> of(JavaClass type) {
        return Arrays.stream(values()).filter(m -> m.contains(type)).findFirst();
    }

    boolean contains(JavaClass type) {
        String name = type.getPackageName();
        return name.equals(rootPackage) || name.startsWith(rootPackage + ".");
    }

    /** Returns a class name of this module without the module's root package, for short messages. */
    String relative(String className) {
        return className.startsWith(rootPackage + ".") ? className.substring(rootPackage.length() + 1) : className;
    }

    /** Returns the module's main source folder. */
    Path sourceFolder() {
        Path folder = ROOT.resolve(directory).resolve("src/main/java");
        if (!Files.isDirectory(folder)) {
            throw new IllegalStateException("No source folder " + folder + "; run the test from the examples module");
        }
        return folder;
    }

    /** Returns whether {@code type} is in an {@code internal} package, which is not API. */
    static boolean isInternal(JavaClass type) {
        return List.of(type.getPackageName().split("\\.")).contains("internal");
    }

    /** Returns the top-level class that {@code type} is nested in, or {@code type} itself. */
    static JavaClass topLevel(JavaClass type) {
        JavaClass outer = type;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer;
    }

    /**
     * Returns whether {@code type} is public API: in a non-internal package and reachable from outside, that is
     * public or protected all the way out to its public top-level class.
     */
    static boolean isApi(JavaClass type) {
        if (isInternal(type) || type.getSimpleName().equals("package-info")) {
            return false;
        }
        for (JavaClass level = type; ; level = level.getEnclosingClass().get()) {
            boolean topLevel = level.getEnclosingClass().isEmpty();
            boolean visible = level.getModifiers().contains(JavaModifier.PUBLIC)
                    || (!topLevel && level.getModifiers().contains(JavaModifier.PROTECTED));
            if (!visible || level.isAnonymousClass() || level.isLocalClass()) {
                return false;
            }
            if (topLevel) {
                return true;
            }
        }
    }
}
