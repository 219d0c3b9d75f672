/** Goodput's junit-extension module; its API arrives with the issue that builds it. */
package dev.goodput.junit;
