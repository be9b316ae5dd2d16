import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SeatMap, SeatsUpdate } from '@cinema/contract';
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

/**
 * Watches the showtime's room: joins it (again after every reconnect) and keeps the seat map in step with
 * `seats_update`, with no reload. `onUpdate` hears every change for this showtime. The Socket.IO client loads
 * with the first seat map, not with the app.
 */
export function useSeatUpdates(showtimeId: string, onUpdate?: (update: SeatsUpdate) => void) {
  const queryClient = useQueryClient();
  const onUpdateRef = useRef(onUpdate);
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
      let joinedOnce = false;
      const join = () => {
        socket.emit(SOCKET_EVENTS.joinShowtime, showtimeId, () => {
          // Updates sent while disconnected were missed: read the whole map again after a re-join.
          if (joinedOnce) void queryClient.invalidateQueries({ queryKey: key });
          joinedOnce = true;
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
        onUpdateRef.current?.(update);
      };
      socket.on('connect', join);
      socket.on(SOCKET_EVENTS.seatsUpdate, onSeatsUpdate);
      if (socket.connected) join();
      stop = () => {
        socket.off('connect', join);
        socket.off(SOCKET_EVENTS.seatsUpdate, onSeatsUpdate);
        socket.emit(SOCKET_EVENTS.leaveShowtime);
      };
    });
    return () => {
      left = true;
      stop?.();
    };
  }, [showtimeId, queryClient]);
}
