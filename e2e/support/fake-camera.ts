import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
