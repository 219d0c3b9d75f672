package dev.goodput.examples.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.HasDescription;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * The shape every published module keeps (core, mock-server, junit-extension, testcontainers): API names that an
 * IDE's auto-import cannot confuse, no dependency cycles, small classes, and an API that says how stable it is and
 * never hands out an internal type. Each failure names the offenders.
 */
class ArchitectureTest {

    private static final int MOST_LINES = 300;
    private static final String LENGTH_REASON = "Longer than " + MOST_LINES + " lines because";

    @Test
    void should_not_give_two_public_api_types_the_same_simple_name() {
        Map<String, Set<String>> byName = new TreeMap<>();
        for (JavaClass type : publicTopLevelApiTypes()) {
            byName.computeIfAbsent(type.getSimpleName(), name -> new TreeSet<>())
                    .add(type.getName());
        }
        assertThat(byName).hasSizeGreaterThan(50);
        byName.values().removeIf(types -> types.size() == 1);
        assertThat(byName)
                .as("public API types sharing a simple name across the published modules")
                .isEmpty();
    }

    @Test
    void should_have_no_import_circle_through_two_packages_of_a_module() {
        List<String> cycles = new ArrayList<>();
        for (PublishedModules module : PublishedModules.values()) {
            cycles.addAll(ClassCycles.in(
                    PublishedModules.mainClasses().stream()
                            .filter(module::contains)
                            .toList(),
                    module));
        }
        assertThat(cycles)
                .as("import circles through two or more packages among main classes (a nested class counts as its"
                        + " top-level class)")
                .isEmpty();
    }

    /**
     * A module's top-level packages ({@code dev.goodput.core.load}, {@code dev.goodput.core.result}, ... each with
     * its {@code internal} implementation beneath it) depend on each other one way only, as JUnit's
     * {@code org.junit.(*)..} slices do. The root package, which holds the entry points, is not a slice: it may
     * use every concept, and every concept may use its exceptions and clock.
     */
    @Test
    void should_keep_each_module_s_top_level_packages_free_of_cycles() {
        for (PublishedModules module : PublishedModules.values()) {
            slices().matching(module.rootPackage + ".(*)..")
                    .should()
                    .beFreeOfCycles()
                    .check(classesOf(module));
        }
    }

    /**
     * Core's shared {@code internal} package holds helpers that know no concept (units, word lists, redaction,
     * single-setting checks), so every concept may use them; a helper that imported a concept would tie that
     * concept to all the others.
     */
    @Test
    void should_keep_core_s_shared_internals_free_of_its_concepts() {
        noClasses()
                .that()
                .resideInAPackage("dev.goodput.core.internal..")
                .should()
                .dependOnClassesThat(resideInAPackage("dev.goodput.core.*..")
                        .and(not(resideInAPackage("dev.goodput.core.internal.."))))
                .check(classesOf(PublishedModules.CORE));
    }

    /** The other published modules use core through its API; only a transport implements core's SPI. */
    @Test
    void should_reach_core_from_other_modules_through_its_api_only() {
        for (PublishedModules module : PublishedModules.values()) {
            if (module != PublishedModules.CORE) {
                noClasses()
                        .should()
                        .dependOnClassesThat()
                        .resideInAPackage("dev.goodput.core..internal..")
                        .check(classesOf(module));
            }
        }
    }

    /** Core's root package keeps the entry points; each concept has its own package. */
    @Test
    void should_keep_core_s_root_package_to_its_entry_points() {
        assertThat(publicTopLevelApiTypes())
                .filteredOn(type -> type.getPackageName().equals(PublishedModules.CORE.rootPackage))
                .extracting(JavaClass::getSimpleName)
                .hasSizeLessThanOrEqualTo(15);
    }

    @Test
    void should_keep_main_classes_within_300_lines_unless_their_javadoc_says_why() throws IOException {
        List<String> tooLong = new ArrayList<>();
        int files = 0;
        for (PublishedModules module : PublishedModules.values()) {
            Path folder = module.sourceFolder();
            try (Stream<Path> sources = Files.walk(folder)) {
                for (Path source :
                        sources.filter(ArchitectureTest::isClassSource).toList()) {
                    files++;
                    List<String> lines = Files.readAllLines(source);
                    if (lines.size() > MOST_LINES && !classJavadoc(source).contains(LENGTH_REASON)) {
                        tooLong.add(PublishedModules.ROOT.relativize(source) + " (" + lines.size() + " lines)");
                    }
                }
            }
        }
        assertThat(files).isGreaterThan(100);
        assertThat(tooLong)
                .as(
                        "main classes over %d lines whose class Javadoc has no sentence \"%s ...\"",
                        MOST_LINES, LENGTH_REASON)
                .isEmpty();
    }

    @Test
    void should_not_expose_internal_types_in_public_or_protected_api_signatures() {
        List<String> leaks = new ArrayList<>();
        List<JavaClass> apiTypes = PublishedModules.mainClasses().stream()
                .filter(PublishedModules::isApi)
                .toList();
        for (JavaClass type : apiTypes) {
            List<JavaType> inherited = new ArrayList<>(type.getInterfaces());
            type.getSuperclass().ifPresent(inherited::add);
            inherited.forEach(supertype -> addLeaks(leaks, type, "extends", supertype));
            for (JavaMember member : type.getMembers()) {
                if (!isVisibleApi(member)) {
                    continue;
                }
                if (member instanceof JavaField field) {
                    addLeaks(leaks, field, "has the type", field.getType());
                } else if (member instanceof JavaCodeUnit code) {
                    addLeaks(leaks, code, "returns", code.getReturnType());
                    code.getParameterTypes().forEach(parameter -> addLeaks(leaks, code, "takes", parameter));
                    code.getThrowsClause().getTypes().forEach(thrown -> addLeaks(leaks, code, "throws", thrown));
                }
            }
        }
        assertThat(apiTypes).hasSizeGreaterThan(50);
        assertThat(leaks)
                .as("internal types in public or protected API signatures")
                .isEmpty();
    }

    @Test
    void should_mark_every_public_api_type_with_its_stability() {
        assertThat(publicTopLevelApiTypes())
                .filteredOn(type -> !type.isAnnotatedWith(API.class))
                .extracting(JavaClass::getName)
                .as("public API types without @API(status = ..., since = ...)")
                .isEmpty();
    }

    private static JavaClasses classesOf(PublishedModules module) {
        return PublishedModules.mainClasses()
                .that(new com.tngtech.archunit.base.DescribedPredicate<JavaClass>("in " + module.directory) {
                    @Override
                    public boolean test(JavaClass type) {
                        return module.contains(type);
                    }
                });
    }

    private static List<JavaClass> publicTopLevelApiTypes() {
        return PublishedModules.mainClasses().stream()
                .filter(type -> type.getEnclosingClass().isEmpty() && PublishedModules.isApi(type))
                .toList();
    }

    private static boolean isVisibleApi(JavaMember member) {
        Set<JavaModifier> modifiers = member.getModifiers();
        return (modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED))
                && !modifiers.contains(JavaModifier.SYNTHETIC)
                && !modifiers.contains(JavaModifier.BRIDGE);
    }

    /** Adds a line for each internal type in {@code used}, its type arguments and bounds included. */
    private static void addLeaks(List<String> leaks, HasDescription owner, String verb, JavaType used) {
        for (JavaClass involved : used.getAllInvolvedRawTypes()) {
            if (PublishedModules.of(involved).isPresent() && PublishedModules.isInternal(involved)) {
                leaks.add(owner.getDescription() + " " + verb + " " + involved.getName());
            }
        }
    }

    private static boolean isClassSource(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".java") && !name.equals("package-info.java") && !name.equals("module-info.java");
    }

    /**
     * Returns the text of the Javadoc comment just before the file's top-level type, without the leading asterisks
     * and with whitespace collapsed, so that a sentence broken over lines still reads as one.
     */
    static String classJavadoc(Path source) throws IOException {
        String text = Files.readString(source);
        String typeName = source.getFileName().toString().replaceFirst("\\.java$", "");
        Matcher declaration = Pattern.compile(
                        "(?m)^[\\w\\s-]*\\b(class|interface|enum|record|@interface)\\s+" + typeName + "\\b")
                .matcher(text);
        if (!declaration.find()) {
            return "";
        }
        int start = text.lastIndexOf("/**", declaration.start());
        int end = start < 0 ? -1 : text.indexOf("*/", start);
        if (start < 0 || end > declaration.start()) {
            return "";
        }
        return text.substring(start + 3, end)
                .replaceAll("(?m)^\\s*\\*", " ")
                .replaceAll("\\s+", " ")
                .trim();
    }
}
