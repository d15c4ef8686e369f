import type { Socket } from 'node:net';

/** How long a closing connection keeps reading what the client still sends (nginx's lingering_timeout is 5 s). */
export const LINGER_MS = 5000;

/**
 * A lingering close (RFC 9112 §9.6; nginx's `lingering_close`, Apache's `lingering_close()`): after an
 * answer sent before the request's body was read (a PUT refused from its Content-Length), Node closes
 * the socket as soon as the answer is written. Bytes of the body still arriving then meet a closed
 * socket, the kernel answers them with a reset, and the client's write fails (EPIPE, ECONNRESET) before
 * it has read the refusal. Instead the server half-closes (its FIN follows the answer) and goes on reading
 * and dropping what arrives until the client closes or `ms` passes, so the client sees the answer.
 * `socket` is absent under light-my-request, which has no connection to close.
 */
export function lingerOnClose(socket: Socket | null | undefined, ms = LINGER_MS): void {
  if (!socket || socket.destroyed) return;
  // Node's server calls destroySoon() once the answer that says `Connection: close` is written.
  socket.destroySoon = function lingeringClose(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), ms);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}
