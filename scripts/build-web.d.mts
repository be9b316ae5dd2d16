/** The repository root. */
export const root: string;
/** True when apps/web/dist is missing or older than any of its sources. */
export function webBuildIsStale(): boolean;
/** Runs `vite build` when the bundle is stale; throws when the build fails. Returns whether it built. */
export function ensureWebBuilt(options?: { log?: (line: string) => void }): boolean;
/** The newest modification time (ms) of a file or of anything under a folder (node_modules and dist skipped). */
export function newest(entry: string): number;
