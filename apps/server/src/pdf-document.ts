/**
 * pdfkit with its fonts and font parser costs about 0.45 s of CPU to load, more than anything else the server imports:
 * a process loads it at its first PDF (tickets, a receipt, a gift card), or in the rehearsal before it listens
 * (warm-up.ts), not at every start.
 */
let pdfkit: Promise<typeof import('pdfkit')> | undefined;
export const loadPdfKit = () =>
  (pdfkit ??= import('pdfkit').then(
    (module) => module.default,
    (err: unknown) => {
      // A load that failed (the disk away, say) is tried again by the next PDF.
      pdfkit = undefined;
      throw err;
    },
  ));

/** A new PDF, and the whole file once the caller has ended it (`doc.end()`). */
export async function pdfDocument(
  options: PDFKit.PDFDocumentOptions,
): Promise<{ doc: PDFKit.PDFDocument; done: Promise<Buffer> }> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument(options);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done };
}
