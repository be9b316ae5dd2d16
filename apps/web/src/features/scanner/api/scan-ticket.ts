import { useMutation } from '@tanstack/react-query';
import type { ScanResponse } from '@cinema/contract';
import { api } from '../../../lib/api-client';

/** POST /api/admin/scan: checks the ticket in (first scan) or reports it was already used. */
export const scanTicket = (bookingId: string) =>
  api<ScanResponse>('/admin/scan', { method: 'POST', body: { bookingId } });

export const useScanTicket = () => useMutation({ mutationFn: scanTicket });
