import { useEffect, useRef } from 'react';

/**
 * A screen's title in the tab ("Audit log · Cinema") and, once it is shown, keyboard and screen-reader focus on its
 * h1 (give the h1 the returned ref and tabIndex={-1}), so a reader hears where they arrived.
 */
export function usePageHeading(title: string) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Cinema`;
  }, [title]);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return heading;
}
