import type { ReactNode } from 'react';

/** The frame of the sign-in and register screens: a centred card with a title and a short lead. */
export function AuthCard({ title, lead, children }: { title: string; lead: string; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md">
      <div className="card p-6 sm:p-8">
        <h1 className="page-title mb-2">{title}</h1>
        <p className="muted mb-6 text-sm">{lead}</p>
        {children}
      </div>
    </section>
  );
}
