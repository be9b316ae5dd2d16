import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * apps/server, found from this file: it sits in src/ when the sources run (tsx, the tests) and is bundled into
 * dist/server.js for `npm start`; both are one level below apps/server.
 */
export const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
