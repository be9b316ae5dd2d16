import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { ScanResponse } from '@cinema/contract';
import { errorText } from '../../../lib/api-client';
import { seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { scanTicket } from '../api/scan-ticket';
import { useCameraCodes } from './use-camera-codes';

type Result = { kind: 'idle' } | { kind: 'validating' } | { kind: 'done'; ticket: ScanResponse };

/** Door check-in: reads ticket QR codes from the rear camera (or a typed booking id) and validates them. */
export function ScannerPage() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const lastCode = useRef('');
  const [lastRead, setLastRead] = useState('');
  const [result, setResult] = useState<Result>({ kind: 'idle' });
  const [error, setError] = useState('');
  const [manual, setManual] = useState('');

  const validate = useCallback(async (code: string) => {
    setError('');
    setResult({ kind: 'validating' });
    try {
      setResult({ kind: 'done', ticket: await scanTicket(code) });
    } catch (err) {
      setResult({ kind: 'idle' });
      setError(errorText(err, 'Invalid / unknown ticket'));
    }
  }, []);

  const onCode = useCallback(
    (code: string) => {
      // Empty reads and repeats of the last code are ignored until a different code is read.
      if (!code || code === lastCode.current) return;
      lastCode.current = code;
      setLastRead(code);
      void validate(code);
    },
    [validate],
  );

  const camera = useCameraCodes(videoRef, onCode);

  const submitManual = (e: FormEvent) => {
    e.preventDefault();
    const code = manual.trim();
    if (!code) return;
    lastCode.current = code;
    setLastRead(code);
    void validate(code);
  };

  return (
    <section className="mx-auto max-w-xl">
      <p className="mb-2">
        <a href="/admin/showtimes">Back</a>
      </p>
      <h1 className="page-title">Scan Tickets</h1>

      <div className="card space-y-4">
        {camera.kind === 'unavailable' ? (
          <p role="alert" className="error">
            {camera.message} Type the booking id below to check a ticket in.
          </p>
        ) : (
          <div className="relative overflow-hidden rounded-xl border border-line bg-black">
            <video
              ref={videoRef}
              className="aspect-[4/3] w-full object-cover"
              muted
              playsInline
              aria-label="Camera view"
            />
            {camera.kind === 'starting' && (
              <p className="absolute inset-0 grid place-items-center text-sm text-slate-200">
                Starting camera…
              </p>
            )}
          </div>
        )}

        <p className="text-sm">
          <span className="muted">Last read: </span>
          <code data-testid="last-read" className="break-all">
            {lastRead || '—'}
          </code>
        </p>

        <div
          data-testid="scan-result"
          aria-live="polite"
          className={`min-h-24 rounded-xl border p-4 ${
            result.kind === 'done'
              ? // A ticket paid in test mode is never green: nobody paid for it.
                result.ticket.alreadyCheckedIn || result.ticket.testMode
                ? 'border-amber-400/50 bg-amber-950/50'
                : 'border-emerald-400/50 bg-emerald-950/50'
              : 'border-line bg-panel-2'
          }`}
        >
          {result.kind === 'validating' && <p className="text-lg font-semibold">Validating...</p>}
          {result.kind === 'done' && (
            <div className="space-y-1">
              {result.ticket.testMode && (
                <p className="text-amber-300" data-testid="test-ticket">
                  <span className="text-3xl font-black">TEST</span>{' '}
                  <span className="text-sm">paid in test mode: no money was taken</span>
                </p>
              )}
              <p className="text-2xl font-extrabold">
                {result.ticket.alreadyCheckedIn ? 'ALREADY CHECKED-IN ⚠️' : 'VALID ✅'}
              </p>
              <p>{result.ticket.user.email}</p>
              <p>
                {result.ticket.movie} — {formatDateTime(result.ticket.startsAt)}
              </p>
              <p>
                {seatWithType(result.ticket.seat)} · {result.ticket.auditorium}
              </p>
            </div>
          )}
          {result.kind === 'idle' && !error && (
            <p className="muted">Point the camera at a ticket's QR code.</p>
          )}
        </div>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}

        <form onSubmit={submitManual} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <label className="field flex-1">
            <span className="field-label">Booking id</span>
            <input
              className="input"
              value={manual}
              onChange={(e) => setManual(e.target.value)}
              placeholder="e.g. 3f6c…"
              autoComplete="off"
              spellCheck={false}
            />
          </label>
          <button type="submit" className="btn-primary" disabled={!manual.trim()}>
            Check in
          </button>
        </form>
      </div>
    </section>
  );
}
