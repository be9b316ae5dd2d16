import type { RefObject } from 'react';

/** The camera's picture (4:3), named for screen readers, with `starting` over it until the decoder is ready. */
export function CameraView({
  videoRef,
  label,
  starting,
  className = '',
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  label: string;
  /** What to say while the camera starts; null once it is live. */
  starting: string | null;
  className?: string;
}) {
  return (
    <div className={`relative overflow-hidden rounded-xl border border-line bg-black ${className}`}>
      <video
        ref={videoRef}
        className="aspect-[4/3] w-full object-cover"
        muted
        playsInline
        aria-label={label}
      />
      {starting && (
        <p className="absolute inset-0 grid place-items-center text-sm text-slate-200">{starting}</p>
      )}
    </div>
  );
}
