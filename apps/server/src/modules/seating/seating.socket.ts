import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Socket } from 'socket.io';
import { JoinShowtimeSchema, SOCKET_EVENTS, type JoinShowtimeAck } from '@cinema/contract';
import { showtimeRoom } from '../../plugins/realtime.ts';
import { showtimeExists } from './seating.service.ts';
import { socketLanguage, translateMessage } from '../../i18n.ts';

/** Answers a join's acknowledgement (when the client asked for one), a refusal in the socket's language. */
export const acknowledge =
  (socket: Socket, ack: unknown) =>
  (answer: JoinShowtimeAck): void => {
    if (typeof ack === 'function')
      ack(answer.ok ? answer : { ...answer, error: translateMessage(answer.error, socketLanguage(socket)) });
  };

const ROOM_PREFIX = showtimeRoom('');

function leaveShowtimeRooms(socket: Socket, except?: string) {
  for (const room of socket.rooms) {
    if (room.startsWith(ROOM_PREFIX) && room !== except) void socket.leave(room);
  }
}

/**
 * `join_showtime`: a socket watches one showtime at a time (joining another leaves the previous room), and only
 * a showtime that exists.
 */
export const seatingSocket = fp(
  async function seatingSocket(app: FastifyInstance) {
    app.realtime.io.on('connection', (socket) => {
      socket.on(SOCKET_EVENTS.joinShowtime, async (raw: unknown, ack?: unknown) => {
        const reply = acknowledge(socket, ack);
        const parsed = JoinShowtimeSchema.safeParse(raw);
        if (!parsed.success) return reply({ ok: false, error: 'Invalid showtime id' });
        const room = showtimeRoom(parsed.data.toLowerCase());
        if (socket.rooms.has(room)) return reply({ ok: true });
        try {
          if (!(await showtimeExists(app.database.db, parsed.data))) {
            return reply({ ok: false, error: 'Showtime not found' });
          }
        } catch (err) {
          app.log.warn({ err }, 'join_showtime lookup failed');
          return reply({ ok: false, error: 'Could not join the showtime, try again' });
        }
        leaveShowtimeRooms(socket, room);
        await socket.join(room);
        reply({ ok: true });
      });
      socket.on(SOCKET_EVENTS.leaveShowtime, () => leaveShowtimeRooms(socket));
    });
  },
  { name: 'seating-socket', dependencies: ['db', 'realtime', 'socket-guard'] },
);
