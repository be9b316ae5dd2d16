/** What a screen shows while its code loads: said politely to screen readers, shown only after a short pause. */
export function PageLoading({ what = 'page' }: { what?: string }) {
  return (
    <p className="muted animate-appear" role="status">
      Loading {what}…
    </p>
  );
}
