import type { Plugin } from 'vite';

/**
 * react-router's build creates its components and contexts with `React.forwardRef(…)`, `React.memo(…)` and
 * `React.createContext(…)` calls that carry no `/* @__PURE__ *\/` mark, and names them with top-level
 * `X.displayName = "…"` writes. A bundler must keep a call it cannot prove pure, and a write to what it returned, so
 * everything they reach stayed in the first load though the app never uses it: `<Form>` and `useSubmit`, the
 * framework's prefetch links, `HistoryRouter`, `ScrollRestoration`. Marking those calls pure (what React's own
 * builds and react-query do) lets tree-shaking drop the unused ones; the displayName writes (names for React's
 * developer tools, which production builds do not need) go with them. Only react-router's `dist` files are touched.
 */
export function pureReactRouter(): Plugin {
  const file = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/].*\.mjs$/;
  return {
    name: 'pure-react-router',
    apply: 'build',
    transform: {
      filter: { id: file },
      handler(code) {
        return code
          .replace(
            /(?<!__PURE__ \*\/ )\b(React\d*\.(?:forwardRef|memo|createContext)\()/g,
            '/* @__PURE__ */ $1',
          )
          .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm, '');
      },
    },
  };
}

/**
 * engine.io-client lists its WebTransport transport beside WebSocket and HTTP long-polling, so the Socket.IO client
 * bundles it (with the packet stream codecs only it uses) although the app asks for `['websocket', 'polling']` and
 * the server does not offer WebTransport: the list loses that one entry. The build fails if the file changes shape
 * (a new engine.io-client), rather than silently keeping or breaking the transport.
 */
export function withoutWebTransport(): Plugin {
  const file = /[\\/]node_modules[\\/]engine\.io-client[\\/]build[\\/]esm[\\/]transports[\\/]index\.js$/;
  const lines = ['import { WT } from "./webtransport.js";\n', '    webtransport: WT,\n'];
  return {
    name: 'without-webtransport',
    apply: 'build',
    transform: {
      filter: { id: file },
      handler(code, id) {
        if (!lines.every((line) => code.includes(line)))
          throw new Error(
            `${id} no longer reads as expected: see withoutWebTransport in apps/web/build/lean-deps.ts`,
          );
        return lines.reduce((rest, line) => rest.replace(line, ''), code);
      },
    },
  };
}
