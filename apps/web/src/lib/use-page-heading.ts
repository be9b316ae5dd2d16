import { useEffect, useRef } from 'react';

/**
 * A page's title ("Pricing · Cinema") and its h1 (the returned ref) taking the focus when the page opens, so a
 * screen reader starts reading there after a route change.
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
