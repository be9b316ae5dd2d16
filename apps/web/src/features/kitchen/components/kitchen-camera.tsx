import { useCallback, useRef } from 'react';
import { CameraView } from '../../../components/camera/camera-view';
import { useCameraCodes } from '../../../components/camera/use-camera-codes';
import { useTranslation } from '../../../lib/i18n';

/**
 * The device's camera reading the order's QR code (its reference) for the hand-over: each new code read is handed
 * to `onCode` once (a code held in view is not read again until another one was). Loaded only when staff open it,
 * with the QR decoder.
 */
export function KitchenCamera({ onCode }: { onCode: (code: string) => void }) {
  const { t } = useTranslation('admin');
  const videoRef = useRef<HTMLVideoElement>(null);
  const last = useRef('');
  const read = useCallback(
    (code: string) => {
      if (!code || code === last.current) return;
      last.current = code;
      onCode(code);
    },
    [onCode],
  );
  const camera = useCameraCodes(videoRef, read);
  if (camera.kind === 'unavailable') {
    return (
      <p role="alert" className="error">
        {t(`scanner.camera.${camera.problem}`)} {t('kitchen.typeInstead')}
      </p>
    );
  }
  return (
    <CameraView
      videoRef={videoRef}
      label={t('kitchen.cameraView')}
      starting={camera.kind === 'starting' ? t('scanner.starting') : null}
      className="max-w-sm"
    />
  );
}
