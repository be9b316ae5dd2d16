import { useEffect, useRef, useState, type RefObject } from 'react';
import { loadQrDetector } from './qr-decoder';

export const DECODE_INTERVAL_MS = 300;

/** Why the camera cannot be used (the door screen says it in the viewer's language). */
export type CameraProblem = 'denied' | 'notFound' | 'inUse' | 'insecure' | 'failed';

export type CameraState =
  { kind: 'starting' } | { kind: 'live' } | { kind: 'unavailable'; problem: CameraProblem };

function cameraProblem(err: unknown): CameraProblem {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'notFound';
  if (name === 'NotReadableError') return 'inUse';
  if (!navigator.mediaDevices?.getUserMedia) return 'insecure';
  return 'failed';
}

/**
 * Streams the rear camera into `videoRef` and reports every QR code it decodes (every 300 ms) to `onCode`.
 * Filtering of empty reads and repeats is left to the caller, which knows the last code.
 */
export function useCameraCodes(videoRef: RefObject<HTMLVideoElement | null>, onCode: (code: string) => void) {
  const [state, setState] = useState<CameraState>({ kind: 'starting' });
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;
    let busy = false;

    async function start() {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error('no mediaDevices');
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment' },
          audio: false,
        });
        if (stopped) return;
        const video = videoRef.current;
        if (!video) return;
        video.srcObject = stream;
        await video.play().catch(() => undefined);
        // The decoder's WebAssembly is loaded before the camera counts as live: the door may lose the network
        // before the first code comes into view.
        const detector = await loadQrDetector();
        if (stopped) return;
        setState({ kind: 'live' });
        timer = setInterval(async () => {
          if (busy || stopped || video.readyState < 2) return;
          busy = true;
          try {
            const codes = await detector.detect(video);
            const value = codes[0]?.rawValue?.trim() ?? '';
            onCodeRef.current(value);
          } catch {
            // A frame that cannot be decoded is just skipped; the next tick tries again.
          } finally {
            busy = false;
          }
        }, DECODE_INTERVAL_MS);
      } catch (err) {
        if (!stopped) setState({ kind: 'unavailable', problem: cameraProblem(err) });
      }
    }
    void start();
    return () => {
      stopped = true;
      clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [videoRef]);

  return state;
}
