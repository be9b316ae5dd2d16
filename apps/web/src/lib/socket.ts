import { io, type Socket } from 'socket.io-client';
import { currentLanguage } from './i18n';

let socket: Socket | null = null;

/** One Socket.IO connection to the same origin, opened on first use. */
export function getSocket(): Socket {
  // The server answers the socket's errors in the viewer's language (asked again on every reconnection).
  socket ??= io({
    transports: ['websocket', 'polling'],
    auth: (send) => send({ language: currentLanguage() }),
  });
  return socket;
}
