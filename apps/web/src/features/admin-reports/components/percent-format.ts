/** Percent figures (0–100) in `locale`, with `digits` decimals: "50%" in English, "50 %" in German. */
export function percentFormat(locale: string, digits: number): (percent: number) => string {
  const format = new Intl.NumberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return (percent) => format.format(percent / 100);
}
