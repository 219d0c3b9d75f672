/** Goodput's testcontainers module; its API arrives with the issue that builds it. */
package dev.goodput.testcontainers;
