export interface Row {
  figure: string;
  measured: string;
  reference: string;
  ratio: string;
  target: string;
  met: boolean | null;
}

const headers = ['figure', 'measured', 'reference (same run)', 'ratio', 'target', 'met'];

const cells = (r: Row) => [
  r.figure,
  r.measured,
  r.reference,
  r.ratio,
  r.target,
  r.met === null ? '—' : r.met ? 'yes' : 'NO',
];

/** The table for the terminal: aligned columns. */
export function textTable(rows: Row[]): string {
  const all = [headers, ...rows.map(cells)];
  const widths = headers.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [
    line(headers),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map((r) => line(cells(r))),
  ].join('\n');
}

/** The same table in Markdown. */
export function markdownTable(rows: Row[]): string {
  const line = (r: string[]) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map((r) => line(cells(r)))].join('\n');
}
