import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JoinKitchenSchema, SOCKET_EVENTS, type KitchenUpdate } from '@cinema/contract';
import { sessionsFor } from '../../plugins/auth.ts';
import { acknowledge } from '../seating/seating.socket.ts';

/** The Socket.IO room of every open kitchen screen (staff only). */
export const KITCHEN_ROOM = 'kitchen';

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
          if (user.role !== 'ADMIN' && user.role !== 'STAFF')
            return reply({ ok: false, error: 'Staff only' });
        } catch (err) {
          app.log.warn({ err }, 'join_kitchen session check failed');
          return reply({ ok: false, error: 'Could not reach the kitchen, try again' });
        }
        await socket.join(KITCHEN_ROOM);
        reply({ ok: true });
      });
      socket.on(SOCKET_EVENTS.leaveKitchen, () => void socket.leave(KITCHEN_ROOM));
    });
  },
  { name: 'kitchen', dependencies: ['db', 'events', 'realtime', 'socket-guard'] },
);
