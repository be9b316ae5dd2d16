import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

const APP_NAME = 'Cinema';

/**
 * Every route's title and focus (DESIGN §6.6): the document title follows the page's h1 ("My Tickets · Cinema",
 * also when the heading changes, as the success page's does), and after a navigation focus moves to the new h1, so a
 * screen reader announces the page and Tab starts from its top. The first load keeps the browser's own focus.
 * Lazy screens render their h1 later: the main region is watched until it appears.
 */
export function usePageHeading(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const firstLoad = useRef(true);

  useEffect(() => {
    const region = main.current;
    if (!region) return;
    const focus = !firstLoad.current;
    firstLoad.current = false;
    let focused = false;
    const apply = () => {
      const h1 = region.querySelector('h1');
      if (!h1) return;
      const text = h1.textContent?.replace(/\s+/g, ' ').trim();
      const title = text ? `${text} · ${APP_NAME}` : APP_NAME;
      if (document.title !== title) document.title = title;
      if (focus && !focused) {
        focused = true;
        if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
        // Only when nothing inside the page took focus itself (a form's first field, a dialog).
        if (!region.contains(document.activeElement) || document.activeElement === region) {
          h1.focus({ preventScroll: true });
        }
      }
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(region, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [pathname, main]);
}
