/**
 * The Netty transport: no API of its own. Putting this module on the class path and setting
 * {@code goodput.client.transport=netty} selects it (found with {@link java.util.ServiceLoader}).
 */
package dev.goodput.transport.netty.internal;
