import { io, type Socket } from 'socket.io-client';

let socket: Socket | null = null;

/** One Socket.IO connection to the same origin, opened on first use. */
export function getSocket(): Socket {
  socket ??= io({ transports: ['websocket', 'polling'] });
  return socket;
}
