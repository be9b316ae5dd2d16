import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
// The decoder's WebAssembly is bundled and served from our own origin (the library would fetch it from a CDN).
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

let detector: BarcodeDetector | null = null;

/** A QR decoder backed by ZXing's WebAssembly build, loaded only by the scanner page. */
export function getQrDetector(): BarcodeDetector {
  if (!detector) {
    prepareZXingModule({
      overrides: {
        locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
      },
    });
    detector = new BarcodeDetector({ formats: ['qr_code'] });
  }
  return detector;
}
