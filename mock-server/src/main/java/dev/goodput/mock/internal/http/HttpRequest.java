package dev.goodput.mock.internal.http;

import java.util.Map;

/**
 * One decoded HTTP/1.x request.
 *
 * @param method the method, e.g. {@code POST}
 * @param path the request target without its query string
 * @param headers the headers, names in lower case (the last value wins)
 * @param body the body, decoded from chunked transfer encoding if it was
 * @param keepAlive whether the connection stays open after the response
 * @param readNanos when the last byte of the request had been read ({@code System.nanoTime()})
 */
record HttpRequest(
        String method, String path, Map<String, String> headers, byte[] body, boolean keepAlive, long readNanos) {}
