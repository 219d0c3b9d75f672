/** Implementation of Goodput's containers; not API, may change in any release. */
package dev.goodput.testcontainers.internal;
