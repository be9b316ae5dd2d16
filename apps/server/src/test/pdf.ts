import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';

/** poppler-utils (pdftoppm, pdftotext) render and read the PDF as a viewer would; .ci/run installs them. */
export const hasPoppler = (() => {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn('pdftoppm (poppler-utils) is not installed: the PDF rendering test is skipped.');
    return false;
  }
})();

/** Renders every page at 150 dpi and reads the text; the pages as decoded QR codes and text. */
export function readPdf(pdf: Buffer): { pages: { qr: string | null }[]; text: string[] } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tickets-pdf-'));
  try {
    const file = path.join(dir, 'tickets.pdf');
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', '150', '-png', file, path.join(dir, 'page')]);
    const pngs = readdirSync(dir)
      .filter((f) => f.endsWith('.png'))
      .sort();
    const pages = pngs.map((f) => {
      const image = PNG.sync.read(readFileSync(path.join(dir, f)));
      return { qr: jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null };
    });
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f');
    return { pages, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
