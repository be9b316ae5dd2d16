import type {
  DoorListResponse,
  DoorShowtimesResponse,
  ScanBody,
  ScanResponse,
  ScanSyncBody,
  ScanSyncResponse,
  ScanUndoResponse,
} from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** POST /api/admin/scan: checks the ticket in for the showtime being admitted (first scan) or reports it was used. */
export const scanTicket = (body: ScanBody) =>
  api<ScanResponse>('/admin/scan', { method: 'POST', body: { ...body } });

/** POST /api/admin/scan/undo: reverses a check-in made within 15 minutes. */
export const undoScan = (bookingId: string) =>
  api<ScanUndoResponse>('/admin/scan/undo', { method: 'POST', body: { bookingId } });

/** POST /api/admin/scan/sync: check-ins made offline; the server's first check-in wins. */
export const syncScans = (body: ScanSyncBody) =>
  api<ScanSyncResponse>('/admin/scan/sync', { method: 'POST', body: { ...body } });

/** GET /api/admin/scan/showtimes: what the door may admit, entry open first. */
export const doorShowtimes = () => api<DoorShowtimesResponse>('/admin/scan/showtimes');

/** GET /api/admin/scan/showtimes/{id}: the showtime's tickets, kept on the device for offline scanning. */
export const doorList = (showtimeId: string) => api<DoorListResponse>(`/admin/scan/showtimes/${showtimeId}`);
