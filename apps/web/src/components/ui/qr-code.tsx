import { useEffect, useState } from 'react';

/**
 * A QR code of `value` drawn as a PNG image (dark on white, with a quiet zone so a phone or scanner reads it
 * from a dark page). If it cannot be produced it is simply not shown.
 */
export function QrCode({ value, size = 120, label }: { value: string; size?: number; label: string }) {
  const [drawn, setDrawn] = useState<{ value: string; src: string } | null>(null);

  useEffect(() => {
    let current = true;
    // Loaded on first use: only the ticket screens need the encoder.
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(value, { width: size, margin: 2, errorCorrectionLevel: 'M' }))
      .then((src) => current && setDrawn({ value, src }))
      .catch(() => current && setDrawn(null));
    return () => {
      current = false;
    };
  }, [value, size]);

  if (!drawn || drawn.value !== value) return null;
  return (
    <img
      src={drawn.src}
      width={size}
      height={size}
      alt={label}
      data-qr-value={value}
      className="shrink-0 rounded-md bg-white"
      style={{ width: size, height: size, imageRendering: 'pixelated' }}
    />
  );
}
