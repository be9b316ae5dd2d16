import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import QRCode from 'qrcode';

/** True when ffmpeg is on the PATH (it turns a QR image into the fake camera's video). */
export const hasFfmpeg = (() => {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Renders `text` as a QR code and turns it into a looping y4m video (yuv420p) for Chromium's
 * --use-file-for-fake-video-capture, so the scanner page sees the code through a "camera".
 */
export async function qrCameraVideo(text: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cinema-cam-'));
  const png = path.join(dir, 'qr.png');
  const y4m = path.join(dir, 'qr.y4m');
  await QRCode.toFile(png, text, { width: 360, margin: 4 });
  execFileSync(
    'ffmpeg',
    [
      '-loglevel',
      'error',
      '-y',
      '-loop',
      '1',
      '-i',
      png,
      '-vf',
      'pad=640:480:(ow-iw)/2:(oh-ih)/2:white,format=yuv420p',
      '-t',
      '2',
      '-r',
      '10',
      '-pix_fmt',
      'yuv420p',
      y4m,
    ],
    { stdio: 'inherit' },
  );
  return y4m;
}

/**
 * A looping camera video showing several things in turn, `seconds` each: a QR code of each string, or nothing (a
 * white frame) for null, so a test can act before the first code comes into view and the door sees several tickets.
 * Each part is made like qrCameraVideo's; the parts' frames are joined after the first part's header.
 */
export async function qrCameraSequence(codes: (string | null)[], seconds = 3): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cinema-cam-'));
  const parts: Buffer[] = [];
  for (const [i, code] of codes.entries()) {
    const png = path.join(dir, `part-${i}.png`);
    const y4m = path.join(dir, `part-${i}.y4m`);
    // A blank part is the QR image painted over in white.
    await QRCode.toFile(png, code ?? 'blank', { width: 360, margin: 4 });
    const blank = code === null ? ',drawbox=x=0:y=0:w=iw:h=ih:color=white:t=fill' : '';
    execFileSync(
      'ffmpeg',
      [
        '-loglevel',
        'error',
        '-y',
        '-loop',
        '1',
        '-i',
        png,
        '-vf',
        `pad=640:480:(ow-iw)/2:(oh-ih)/2:white${blank},format=yuv420p`,
        '-t',
        String(seconds),
        '-r',
        '10',
        '-pix_fmt',
        'yuv420p',
        y4m,
      ],
      { stdio: 'inherit' },
    );
    const video = readFileSync(y4m);
    parts.push(i === 0 ? video : video.subarray(video.indexOf(0x0a) + 1));
  }
  const out = path.join(dir, 'sequence.y4m');
  writeFileSync(out, Buffer.concat(parts));
  return out;
}
