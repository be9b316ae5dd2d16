/** Makes a data directory the server's alone: directories 0700, files 0600. */
export function lockDownDataDir(dir: string): Promise<void>;
/** A gzipped data-directory tarball with relative member names and private modes (files 0600, directories 0700). */
export function tidyBackup(gzipped: Uint8Array | ArrayBuffer): Promise<Buffer>;
