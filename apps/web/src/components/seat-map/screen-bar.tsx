/** The cinema screen at the front of a seat map; said in words before the first row. */
export function ScreenBar({ firstRow }: { firstRow: string | undefined }) {
  return (
    <>
      <div aria-hidden className="mx-auto w-full max-w-xl">
        <div className="h-2 rounded-t-full bg-gradient-to-b from-slate-200 to-slate-500 shadow-[0_8px_24px_rgba(226,232,240,0.25)]" />
        <p className="mt-1 text-center text-xs uppercase tracking-[0.3em] text-muted">Screen</p>
      </div>
      <p className="sr-only">The screen is at the front, before row {firstRow ?? 'A'}.</p>
    </>
  );
}
