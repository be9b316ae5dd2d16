import './lib/react-parity';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadScreen } from './app/router';
import { i18nReady } from './lib/i18n';
import './styles.css';

// A tab opened before a new release asks for screens that release no longer has: load the new release instead
// (once a minute at most, so that a chunk missing for another reason cannot reload the page in a loop).
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('mm_reloaded_at') ?? 0);
  if (Date.now() - last < 60_000) return;
  event.preventDefault();
  sessionStorage.setItem('mm_reloaded_at', String(Date.now()));
  window.location.reload();
});

// The first render waits for the language's texts (one small chunk); the screen's code comes meanwhile.
preloadScreen(window.location.pathname);
void i18nReady.finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
