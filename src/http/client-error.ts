import type { Socket } from 'node:net';
import { ERROR_STATUS, type ErrorCode } from '../errors.js';

/** What Node's HTTP parser refuses before any handler runs, answered in the API's error shape instead of an empty body. */
const CLIENT_ERRORS: Record<string, { status: number; reason: string; code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: 'Request Header Fields Too Large',
    code: 'invalid_request',
    message: 'The request line or headers are too long (at most 16 KiB together)',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    reason: 'Payload Too Large',
    code: 'payload_too_large',
    message: 'Chunk extensions are too long',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: 'Request Timeout',
    code: 'invalid_request',
    message: 'The request took too long to arrive',
  },
};
const MALFORMED = {
  status: ERROR_STATUS.invalid_request,
  reason: 'Bad Request',
  code: 'invalid_request' as const,
  message: 'Malformed HTTP request',
};

/** The server's `clientError` listener: one JSON answer, then the connection is closed (the parser cannot go on). */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const answer = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const body = JSON.stringify({ message: answer.message, code: answer.code });
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
