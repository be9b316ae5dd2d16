import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
// The decoder's WebAssembly is bundled and served from our own origin (the library would fetch it from a CDN).
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

let loading: Promise<BarcodeDetector> | null = null;

/**
 * A QR decoder backed by ZXing's WebAssembly build, loaded only by the screens that read codes with a camera (the
 * door's scanner, the kitchen's hand-over). The WebAssembly is fetched and
 * instantiated before the promise settles, so once the camera is live the door needs no network to decode.
 */
export function loadQrDetector(): Promise<BarcodeDetector> {
  loading ??= prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    },
    fireImmediately: true,
  })
    .then(() => new BarcodeDetector({ formats: ['qr_code'] }))
    .catch((err: unknown) => {
      loading = null; // tried again on the next start
      throw err;
    });
  return loading;
}
