import { useEffect, useRef } from 'react';

/**
 * A screen's title in the tab ("Audit log · Cinema") and, once it is shown, keyboard and screen-reader focus on its
 * h1 (give the h1 the returned ref and tabIndex={-1}), so a reader hears where they arrived.
 */
export function usePageHeading(title: string) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Cinema`;
    // The layout titles every route from its h1; this names the screen in the h1's place.
    if (heading.current) heading.current.dataset.title = title;
  }, [title]);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);
  return heading;
}
