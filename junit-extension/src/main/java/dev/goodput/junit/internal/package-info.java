/**
 * Implementation of goodput-junit that is no API: the launcher listener that writes the session summary. Public
 * only because {@link java.util.ServiceLoader} instantiates it.
 */
package dev.goodput.junit.internal;
