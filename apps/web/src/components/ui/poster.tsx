import { useTranslation } from '../../lib/i18n';
/**
 * A movie poster at 2:3, or a calm placeholder when the movie has none; `className` sets its width and `sizes` says
 * how wide it is shown, so the browser picks the smallest copy of `srcSet` that is sharp enough.
 */
export function Poster({
  url,
  srcSet,
  sizes = '(min-width: 640px) 200px, 45vw',
  title,
  className = '',
  decorative = false,
}: {
  url: string | null;
  srcSet?: string | null;
  sizes?: string;
  title: string;
  className?: string;
  /** True where the title is written next to it anyway, so screen readers do not hear it twice. */
  decorative?: boolean;
}) {
  const { t } = useTranslation('common');
  const frame = `aspect-[2/3] overflow-hidden rounded-xl border border-line bg-panel-2 ${className}`;
  if (!url) {
    return (
      <div
        className={`${frame} grid place-items-center bg-gradient-to-br from-panel-2 to-ink text-4xl font-black text-slate-500`}
        role={decorative ? undefined : 'img'}
        aria-label={decorative ? undefined : t('ui.noPoster', { title })}
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
        srcSet={srcSet ?? undefined}
        sizes={srcSet ? sizes : undefined}
        alt={decorative ? '' : t('ui.posterOf', { title })}
        loading="lazy"
        decoding="async"
        className="h-full w-full object-cover"
      />
    </div>
  );
}
