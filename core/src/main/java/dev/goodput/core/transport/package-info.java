/**
 * The transport service-provider interface: how Goodput sends one streamed request and reads its bytes, so that a
 * module such as {@code goodput-transport-netty} can replace the JDK's HTTP client. A
 * {@link dev.goodput.core.transport.TransportProvider} is found with {@link java.util.ServiceLoader}; it opens a
 * {@link dev.goodput.core.transport.Transport}, which starts one {@link dev.goodput.core.transport.Exchange} per
 * attempt and feeds what it reads to a {@link dev.goodput.core.transport.StreamAttempt}. Experimental: it may
 * change in any release while the second implementation teaches us its shape.
 */
package dev.goodput.core.transport;
