package dev.goodput.transport.netty.internal;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The Netty transport is written against core's published transport SPI, as a transport of a user's would be. */
class SpiOnlyTest {

    @Test
    void should_use_core_through_its_published_api_only() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("dev.goodput.transport.netty");
        assertThat(classes).hasSizeGreaterThan(5);
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.goodput.core..internal..")
                .check(classes);
    }
}
