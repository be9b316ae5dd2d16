// The embedded database's files (DATA_DIR) and its backups, kept private: the server, `npm run backup` and
// `npm run restore` share these. PGlite writes its first files world-writable (0666) and dumps them into a tarball as
// they are, under absolute names ("/base/1/112"): a backup unpacked by hand would then land at the root of the disk,
// writable by anyone.
import { chmod, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Makes a data directory the server's alone: the directory and every directory in it 0700, every file 0600
 * (PostgreSQL then creates its new files 0600 too, as it follows the directory's mode).
 */
export async function lockDownDataDir(dir) {
  const walk = async (at) => {
    const stat = await lstat(at);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      await chmod(at, DIR_MODE);
      for (const entry of await readdir(at)) await walk(path.join(at, entry));
    } else if ((stat.mode & 0o777) !== FILE_MODE) {
      await chmod(at, FILE_MODE);
    }
  };
  await walk(dir);
}

const BLOCK = 512;
const field = (header, offset, length) =>
  header
    .subarray(offset, offset + length)
    .toString('latin1')
    .replace(/\0.*$/s, '');

/**
 * A gzipped tarball of a data directory from PGlite's uncompressed one (`dumpDataDir('none')`), with relative member
 * names ("base/1/112") and private modes (files 0600, directories 0700): safe to unpack anywhere, and PGlite loads it
 * as before. Compressed once, here: PGlite's own 'gzip' went through web streams and had to be unpacked again to be
 * tidied (1.8 s of CPU for a 40 MB data directory, against 1.0 s this way; docs/benchmarks.md).
 */
export async function tidyBackup(tarball) {
  const tar = Buffer.from(tarball);
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const name = field(header, 0, 100);
    if (name.startsWith('/')) {
      header.fill(0, 0, 100);
      header.write(name.replace(/^\/+/, ''), 0, 100, 'latin1');
    }
    const directory = field(header, 156, 1) === '5';
    header.write(`${(directory ? DIR_MODE : FILE_MODE).toString(8).padStart(7, '0')}\0`, 100, 8, 'latin1');
    // The checksum: the header's bytes summed with its own field read as spaces.
    header.fill(0x20, 148, 156);
    const sum = header.reduce((a, byte) => a + byte, 0);
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'latin1');
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return promisify(gzip)(tar);
}
