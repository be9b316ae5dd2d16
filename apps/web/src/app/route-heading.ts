import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { i18n } from '../lib/i18n';

/** Whether focus is nowhere in particular: on the page, the main region, or lost with a removed element. */
const focusIsIdle = (main: HTMLElement) => {
  const active = document.activeElement;
  return !active || active === document.body || active === main;
};

/**
 * Every route's page title and focus (WCAG 2.4.2, 2.4.3): after each navigation the tab reads "<main heading> ·
 * Cinema" (a screen may name itself otherwise with data-title on its h1, as usePageHeading does) and keyboard and
 * screen-reader focus moves to the main heading, once it is shown (screens load lazily, data after them). Focus a
 * screen gave one of its own fields stays there; a heading replaced while focused (loading → loaded) passes focus
 * to its successor. A page followed by a link opens at its top.
 */
export function useRouteHeading() {
  const { pathname } = useLocation();
  const navigation = useNavigationType();
  // A page followed by a link opens at its top, not at the last page's scroll offset (under the sticky header, its
  // first controls would be hidden); back and forward leave the browser's own restoring alone, and so does a #target.
  useEffect(() => {
    if (navigation === 'PUSH' && !window.location.hash) {
      (document.scrollingElement ?? document.documentElement).scrollTop = 0;
    }
  }, [pathname, navigation]);
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    const fromOutside = !main.contains(document.activeElement) || focusIsIdle(main);
    let focused: HTMLElement | null = null;
    const update = () => {
      const h1 = main.querySelector('h1');
      if (!h1) return;
      const text = h1.dataset.title ?? h1.textContent?.replace(/\s+/g, ' ').trim();
      const brand = i18n.t('common:layout.brand');
      const title = text ? `${text} · ${brand}` : brand;
      if (document.title !== title) document.title = title;
      const moveFocus =
        focused === null ? fromOutside || focusIsIdle(main) : !focused.isConnected && focusIsIdle(main);
      if (h1 !== focused && moveFocus) {
        if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
        h1.focus({ preventScroll: true });
        focused = h1;
      }
    };
    update();
    const observer = new MutationObserver(update);
    observer.observe(main, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-title'],
    });
    return () => observer.disconnect();
  }, [pathname]);
}
