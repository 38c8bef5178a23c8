import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ERROR_STATUS } from "../api/error-status.ts";
import { errorBody } from "../api/errors.ts";
import { JunctionError } from "../errors/junction-error.ts";
import { HTTP_SERVER_OPTIONS } from "./http-server-options.ts";

/**
 * The listeners' `clientError` hook (docs/rules.md, ours: connections): a request node's HTTP parser
 * rejects, or one that ran out of time, is answered in the one error body, never with any of its bytes, on a
 * connection then closed. Nothing is written when a response of that connection is already under way
 * (pipelined requests), as node's own default does, so the peer never reads a corrupted answer.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(rawResponse(clientErrorOf(error.code)), () => socket.destroy());
}

/** What a parser or timeout failure is, by node's error code; nothing of the request is echoed. */
function clientErrorOf(code: string | undefined): JunctionError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new JunctionError(
        "HEADERS_TOO_LARGE",
        `the request line and headers exceed ${HTTP_SERVER_OPTIONS.maxHeaderSize} bytes`,
      );
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new JunctionError("PAYLOAD_TOO_LARGE", "the chunk extensions are too large");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new JunctionError("REQUEST_TIMEOUT", "the request did not arrive in time");
    case "HPE_INVALID_METHOD":
      return new JunctionError("INVALID_REQUEST", "unknown HTTP method");
    case "HPE_INVALID_URL":
      return new JunctionError("INVALID_REQUEST", "the request target must be a path starting with /");
    case "HPE_INVALID_HEADER_TOKEN":
    case "HPE_INVALID_HEADER_VALUE":
      return new JunctionError("INVALID_REQUEST", "a header name or value holds bytes HTTP does not allow");
    default:
      return new JunctionError("INVALID_REQUEST", "the request is not valid HTTP/1.1");
  }
}

/** A whole HTTP/1.1 response with the error body, written straight to the socket (no request object exists). */
function rawResponse(error: JunctionError): string {
  const status = ERROR_STATUS[error.code];
  const body = JSON.stringify(errorBody(error));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "Cache-Control: no-store",
    "X-Content-Type-Options: nosniff",
    `x-request-id: ${randomUUID()}`,
    "",
    body,
  ].join("\r\n");
}
