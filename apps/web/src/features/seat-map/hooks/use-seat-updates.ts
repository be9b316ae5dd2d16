import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { JoinShowtimeAck, SeatMap, SeatsUpdate } from '@cinema/contract';
import { SOCKET_EVENTS } from '@cinema/contract/constants';
import { seatMapQueryKey } from '../api/get-seat-map';

/** Applies an update to the cached map at once; the refetch that follows brings the server's full truth. */
function patchSeatMap(map: SeatMap, update: SeatsUpdate): SeatMap {
  const changed = new Map(update.seats.map((s) => [s.id, s.status]));
  return {
    ...map,
    seats: map.seats.map((seat) => {
      const status = changed.get(seat.id);
      if (!status || status === seat.status) return seat;
      // Whose hold it is now, only a read says.
      const { heldByMe: _mine, bookingId: _booking, expiresAt: _expires, ...place } = seat;
      return { ...place, status };
    }),
  };
}

/** Waits between attempts to join a showtime the server could not join us to: 1 s, doubling up to 30 s. */
export const joinRetryMs = (attempt: number) => Math.min(1000 * 2 ** attempt, 30_000);

/**
 * Watches the showtime's room: joins it (again after every reconnect, and again with backoff while the server
 * answers that it cannot), keeps the seat map in step with `seats_update`, with no reload, and reads the whole map
 * again on `seats_resync` (the server may have missed updates). `onUpdate` hears every change for this showtime.
 * The Socket.IO client loads with the first seat map, not with the app. Returns whether live updates are paused
 * (the server could not join us yet): the screen says so.
 */
export function useSeatUpdates(
  showtimeId: string,
  onUpdate?: (update: SeatsUpdate) => void,
): { paused: boolean } {
  const queryClient = useQueryClient();
  const onUpdateRef = useRef(onUpdate);
  const [paused, setPaused] = useState(false);
  // Counts the updates heard: each one renders the screen at once, with the map patched in the cache. React Query
  // tells its readers a little later (its notifications wait for a timer), and a state update that changes nothing
  // renders nothing in Preact (decision 054).
  const [, setHeard] = useState(0);
  useEffect(() => {
    onUpdateRef.current = onUpdate;
  });

  useEffect(() => {
    let stop: (() => void) | undefined;
    let left = false;
    void import('../../../lib/socket').then(({ getSocket }) => {
      if (left) return;
      const socket = getSocket();
      const key = seatMapQueryKey(showtimeId);
      let retry: ReturnType<typeof setTimeout> | undefined;
      let attempt = 0;
      let pausedHere = false;
      const join = () => {
        clearTimeout(retry);
        socket.emit(SOCKET_EVENTS.joinShowtime, showtimeId, (ack?: JoinShowtimeAck) => {
          if (left) return;
          if (ack && !ack.ok) {
            // The server could not look the showtime up (its database away): try again, and say so meanwhile.
            if (!pausedHere) setPaused(true);
            pausedHere = true;
            retry = setTimeout(join, joinRetryMs(attempt++));
            return;
          }
          attempt = 0;
          // Only a change is set: a state update from every join answer (outside React's batching) was seen to
          // swallow the seats_update patch that followed it in the screen tests.
          if (pausedHere) setPaused(false);
          pausedHere = false;
          // Updates sent before the room was joined were missed: read the whole map again once joined. That is
          // after every re-join (disconnected meanwhile), and after the first join too: the map was first read
          // before the socket's code had even loaded, so a seat held in between would show as free until the next
          // change.
          void queryClient.invalidateQueries({ queryKey: key });
        });
      };
      const onSeatsUpdate = (update: SeatsUpdate) => {
        if (update.showtimeId !== showtimeId) return;
        // The patch keeps the map's read time: only a real read says what the server knows about our own holds.
        const readAt = queryClient.getQueryState(key)?.dataUpdatedAt;
        queryClient.setQueryData<SeatMap>(key, (map) => (map ? patchSeatMap(map, update) : map), {
          updatedAt: readAt,
        });
        void queryClient.invalidateQueries({ queryKey: key });
        setHeard((n) => n + 1);
        onUpdateRef.current?.(update);
      };
      const onResync = () => void queryClient.invalidateQueries({ queryKey: key });
      socket.on('connect', join);
      socket.on(SOCKET_EVENTS.seatsUpdate, onSeatsUpdate);
      socket.on(SOCKET_EVENTS.seatsResync, onResync);
      if (socket.connected) join();
      stop = () => {
        clearTimeout(retry);
        socket.off('connect', join);
        socket.off(SOCKET_EVENTS.seatsUpdate, onSeatsUpdate);
        socket.off(SOCKET_EVENTS.seatsResync, onResync);
        socket.emit(SOCKET_EVENTS.leaveShowtime);
      };
    });
    return () => {
      left = true;
      stop?.();
    };
  }, [showtimeId, queryClient]);
  return { paused };
}
