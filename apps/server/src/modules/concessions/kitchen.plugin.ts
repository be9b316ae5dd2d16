import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JoinKitchenSchema, SOCKET_EVENTS, type KitchenUpdate } from '@cinema/contract';
import { sessionsFor } from '../../plugins/auth.ts';
import { runPeriodically } from '../../periodic.ts';
import { acknowledge } from '../seating/seating.socket.ts';

/** The Socket.IO room of every open kitchen screen (staff only). */
export const KITCHEN_ROOM = 'kitchen';

const isStaff = (role: string | undefined) => role === 'ADMIN' || role === 'STAFF';

/** How often each process checks that the kitchen screens it serves are still signed in as staff. */
const RECHECK_MS = 30_000;

declare module 'fastify' {
  interface FastifyInstance {
    kitchen: {
      /** Takes out of the kitchen's room every socket of this process whose session ended or is no longer staff's. */
      recheckSessions(): Promise<void>;
    };
  }
}

/**
 * The kitchen screen, live (DESIGN §7.2): a staff member's socket joins the kitchen's room with their session token
 * (`join_kitchen`), and every change of the kitchen's orders is told there as `kitchen_update {ref}`, on every server
 * process: an order paid with food and drink (orderPaid, subscribed here and nowhere else for the kitchen), one made
 * ready or handed over, one refunded. The screen reads its list again on each.
 */
export const kitchenPlugin = fp(
  async function kitchenPlugin(app: FastifyInstance) {
    const { io } = app.realtime;
    const tell = (ref: string) => {
      const update: KitchenUpdate = { ref };
      io.to(KITCHEN_ROOM).emit(SOCKET_EVENTS.kitchenUpdate, update);
    };
    app.events.subscribe('orderPaid', ({ ref, items }) => {
      if (items) tell(ref);
    });
    app.events.subscribe('kitchenChanged', ({ ref }) => tell(ref));
    app.events.subscribe('orderRefunded', ({ ref }) => tell(ref));

    io.on('connection', (socket) => {
      socket.on(SOCKET_EVENTS.joinKitchen, async (raw: unknown, ack?: unknown) => {
        const reply = acknowledge(socket, ack);
        const parsed = JoinKitchenSchema.safeParse(raw);
        if (!parsed.success) return reply({ ok: false, error: 'Not signed in' });
        try {
          const user = await sessionsFor(app.database.db).user(parsed.data.token);
          if (!user) return reply({ ok: false, error: 'Not signed in' });
          if (!isStaff(user.role)) return reply({ ok: false, error: 'Staff only' });
        } catch (err) {
          app.log.warn({ err }, 'join_kitchen session check failed');
          return reply({ ok: false, error: 'Could not reach the kitchen, try again' });
        }
        socket.data.kitchenToken = parsed.data.token;
        await socket.join(KITCHEN_ROOM);
        reply({ ok: true });
      });
      socket.on(SOCKET_EVENTS.leaveKitchen, () => void socket.leave(KITCHEN_ROOM));
    });

    // A screen left open after its staff member signed out, was signed out or lost the role stops hearing orders
    // within RECHECK_MS (each process checks its own sockets; the screen's next read of the list answers 401).
    async function recheckSessions() {
      const members = io.of('/').adapter.rooms.get(KITCHEN_ROOM);
      if (!members) return;
      const sessions = sessionsFor(app.database.db);
      await Promise.all(
        [...members].map(async (id) => {
          const socket = io.of('/').sockets.get(id);
          const token = socket?.data.kitchenToken as string | undefined;
          if (!socket) return;
          const user = token ? await sessions.user(token) : null;
          if (!isStaff(user?.role)) void socket.leave(KITCHEN_ROOM);
        }),
      );
    }
    app.decorate('kitchen', { recheckSessions });
    runPeriodically(app, RECHECK_MS, "the kitchen screens' session check", recheckSessions);
  },
  { name: 'kitchen', dependencies: ['db', 'events', 'realtime', 'socket-guard'] },
);
