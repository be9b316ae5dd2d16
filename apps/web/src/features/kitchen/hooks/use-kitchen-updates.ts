import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { JoinShowtimeAck, KitchenUpdate } from '@cinema/contract';
import { SOCKET_EVENTS } from '@cinema/contract/constants';
import { getToken } from '../../../lib/session';
import { kitchenQueryKey } from '../api/kitchen';

/** Waits between attempts to join the kitchen's room: 1 s, doubling up to 30 s. */
const retryMs = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/**
 * Keeps the kitchen screen live: joins the kitchen's room with the staff member's session (again after every
 * reconnect), and reads the orders again on every `kitchen_update` (an order paid, made ready, handed over or
 * refunded) and after a reconnect (updates sent meanwhile were missed). Returns whether the screen is live, so it can
 * say when it is not.
 */
export function useKitchenUpdates(): { live: boolean } {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let left = false;
    void import('../../../lib/socket').then(({ getSocket }) => {
      if (left) return;
      const socket = getSocket();
      const reload = () => void queryClient.invalidateQueries({ queryKey: kitchenQueryKey });
      let retry: ReturnType<typeof setTimeout> | undefined;
      let attempt = 0;
      let joinedOnce = false;
      const join = () => {
        clearTimeout(retry);
        socket.emit(SOCKET_EVENTS.joinKitchen, { token: getToken() ?? '' }, (ack?: JoinShowtimeAck) => {
          if (left) return;
          if (!ack?.ok) {
            setLive(false);
            retry = setTimeout(join, retryMs(attempt++));
            return;
          }
          attempt = 0;
          setLive(true);
          if (joinedOnce) reload();
          joinedOnce = true;
        });
      };
      const down = () => setLive(false);
      const onUpdate = (_update: KitchenUpdate) => reload();
      socket.on('connect', join);
      socket.on('disconnect', down);
      socket.on(SOCKET_EVENTS.kitchenUpdate, onUpdate);
      if (socket.connected) join();
      stop = () => {
        clearTimeout(retry);
        socket.off('connect', join);
        socket.off('disconnect', down);
        socket.off(SOCKET_EVENTS.kitchenUpdate, onUpdate);
        socket.emit(SOCKET_EVENTS.leaveKitchen);
      };
    });
    return () => {
      left = true;
      stop?.();
    };
  }, [queryClient]);
  return { live };
}
