import type { ReactNode } from 'react';

/**
 * A modal `<dialog>`, open while it is rendered (focus kept inside, Escape closes: `onClose`), named by its heading
 * (`labelledBy`); `widthClass` sets its width (a Tailwind class written out whole, so the build sees it).
 */
export function ModalDialog({
  labelledBy,
  describedBy,
  widthClass = 'w-[min(40rem,calc(100vw-1rem))]',
  onClose,
  children,
}: {
  labelledBy: string;
  describedBy?: string;
  widthClass?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <dialog
      ref={(el) => {
        if (el && !el.open) el.showModal();
      }}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      className={`${widthClass} m-auto max-h-[90vh] overflow-y-auto rounded-2xl border border-line bg-panel p-4 text-slate-100 backdrop:bg-black/70`}
      onClose={onClose}
    >
      {children}
    </dialog>
  );
}
