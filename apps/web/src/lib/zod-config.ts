import { z } from 'zod';

// Zod probes `new Function` (when a schema is built) to decide whether to compile its parsers; the CSP forbids
// eval, so the probe would only report a violation. Interpreted parsing is plenty for the browser. Imported
// first by main.tsx, before any module that builds schemas.
z.config({ jitless: true });
