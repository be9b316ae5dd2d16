/** apps/server/dist/server.js */
export const serverBundle: string;
/** True when apps/server/dist/server.js is missing or older than any of its sources. */
export function serverBuildIsStale(): boolean;
/** Bundles the server when the bundle is stale; throws when the build fails. Returns whether it built. */
export function ensureServerBuilt(options?: { log?: (line: string) => void }): Promise<boolean>;
/** How `npm start` runs the bundle (node's arguments, the environment) for a server with the environment `env`. */
export function serverCommand(env: Record<string, string | undefined>): {
  args: string[];
  env: Record<string, string | undefined>;
};
