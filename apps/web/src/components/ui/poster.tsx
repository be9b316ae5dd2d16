/** A movie poster at 2:3, or a calm placeholder when the movie has none; `className` sets its width. */
export function Poster({
  url,
  title,
  className = '',
  decorative = false,
}: {
  url: string | null;
  title: string;
  className?: string;
  /** True where the title is written next to it anyway, so screen readers do not hear it twice. */
  decorative?: boolean;
}) {
  const frame = `aspect-[2/3] overflow-hidden rounded-xl border border-line bg-panel-2 ${className}`;
  if (!url) {
    return (
      <div
        className={`${frame} grid place-items-center bg-gradient-to-br from-panel-2 to-ink text-4xl font-black text-slate-500`}
        role={decorative ? undefined : 'img'}
        aria-label={decorative ? undefined : `${title} (no poster)`}
        aria-hidden={decorative || undefined}
      >
        {title.trim().charAt(0).toUpperCase() || '?'}
      </div>
    );
  }
  return (
    <div className={frame}>
      <img
        src={url}
        alt={decorative ? '' : `Poster of ${title}`}
        loading="lazy"
        decoding="async"
        className="h-full w-full object-cover"
      />
    </div>
  );
}
