import { encodePng } from './png.ts';
import { seededRandom } from './seeded-random.ts';

export type Rgb = readonly [number, number, number];
export type Motif = 'sunset' | 'neon' | 'moon' | 'mountains' | 'planet' | 'bokeh';

export interface PosterDesign {
  title: string;
  motif: Motif;
  top: Rgb;
  bottom: Rgb;
  accent: Rgb;
  seed: number;
}

export const POSTER_WIDTH = 300;
export const POSTER_HEIGHT = 450;

/** A 5×7 pixel font for poster titles (capital letters; anything else is a space). */
const FONT: Record<string, string> = {
  A: '.###.#...##...#######...##...##...#',
  B: '####.#...##...#####.#...##...#####.',
  C: '.###.#...##....#....#....#...#.###.',
  D: '####.#...##...##...##...##...#####.',
  E: '######....#....####.#....#....#####',
  F: '######....#....####.#....#....#....',
  G: '.###.#...##....#.####...##...#.####',
  H: '#...##...##...#######...##...##...#',
  I: '.###...#....#....#....#....#...###.',
  J: '..###...#....#....#....#.#..#..##..',
  K: '#...##..#.#.#..##...#.#..#..#.#...#',
  L: '#....#....#....#....#....#....#####',
  M: '#...###.###.#.##.#.##...##...##...#',
  N: '#...##...###..##.#.##..###...##...#',
  O: '.###.#...##...##...##...##...#.###.',
  P: '####.#...##...#####.#....#....#....',
  Q: '.###.#...##...##...##.#.##..#..##.#',
  R: '####.#...##...#####.#.#..#..#.#...#',
  S: '.#####....#.....###.....#....#####.',
  T: '#####..#....#....#....#....#....#..',
  U: '#...##...##...##...##...##...#.###.',
  V: '#...##...##...##...##...#.#.#...#..',
  W: '#...##...##...##.#.##.#.##.#.#.#.#.',
  X: '#...##...#.#.#...#...#.#.#...##...#',
  Y: '#...##...#.#.#...#....#....#....#..',
  Z: '#####....#...#...#...#...#....#####',
};

/** A tiny RGB raster with alpha blending: just enough to paint a poster. */
class Raster {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height * 3);
  }

  blend(x: number, y: number, c: Rgb, alpha = 1) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || alpha <= 0) return;
    const i = (Math.floor(y) * this.width + Math.floor(x)) * 3;
    const a = Math.min(1, alpha);
    for (let k = 0; k < 3; k++) this.pixels[i + k] = Math.round(this.pixels[i + k]! * (1 - a) + c[k]! * a);
  }

  verticalGradient(top: Rgb, bottom: Rgb) {
    for (let y = 0; y < this.height; y++) {
      const t = y / (this.height - 1);
      const c: Rgb = [mix(top[0], bottom[0], t), mix(top[1], bottom[1], t), mix(top[2], bottom[2], t)];
      for (let x = 0; x < this.width; x++) this.blend(x, y, c);
    }
  }

  /** A disc; `glow` pixels of soft edge outside it. */
  circle(cx: number, cy: number, r: number, c: Rgb, alpha = 1, glow = 1) {
    for (let y = Math.floor(cy - r - glow); y <= cy + r + glow; y++) {
      for (let x = Math.floor(cx - r - glow); x <= cx + r + glow; x++) {
        const d = Math.hypot(x - cx, y - cy);
        if (d <= r) this.blend(x, y, c, alpha);
        else if (d < r + glow) this.blend(x, y, c, alpha * (1 - (d - r) / glow));
      }
    }
  }

  rect(x0: number, y0: number, w: number, h: number, c: Rgb, alpha = 1) {
    for (let y = Math.max(0, Math.floor(y0)); y < Math.min(this.height, y0 + h); y++) {
      for (let x = Math.max(0, Math.floor(x0)); x < Math.min(this.width, x0 + w); x++)
        this.blend(x, y, c, alpha);
    }
  }

  /** A mountain: a triangle from the apex down to the bottom edge of the poster. */
  peak(apexX: number, apexY: number, halfWidth: number, c: Rgb, alpha = 1, untilY = this.height) {
    for (let y = Math.max(0, Math.floor(apexY)); y < Math.min(untilY, this.height); y++) {
      const spread = ((y - apexY) / (this.height - apexY)) * halfWidth * 2;
      for (let x = Math.floor(apexX - spread); x <= apexX + spread; x++) this.blend(x, y, c, alpha);
    }
  }

  line(x0: number, y0: number, x1: number, y1: number, c: Rgb, alpha = 1) {
    const steps = Math.ceil(Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)));
    for (let s = 0; s <= steps; s++) {
      const t = steps === 0 ? 0 : s / steps;
      this.blend(mix(x0, x1, t), mix(y0, y1, t), c, alpha);
    }
  }

  text(line: string, x: number, y: number, scale: number, c: Rgb) {
    [...line].forEach((ch, i) => {
      const glyph = FONT[ch];
      if (!glyph) return;
      for (let gy = 0; gy < 7; gy++) {
        for (let gx = 0; gx < 5; gx++) {
          if (glyph[gy * 5 + gx] === '#')
            this.rect(x + (i * 6 + gx) * scale, y + gy * scale, scale, scale, c);
        }
      }
    });
  }
}

const mix = (a: number, b: number, t: number) => Math.round(a + (b - a) * t);

function stars(r: Raster, rand: () => number, count: number, maxY: number) {
  for (let i = 0; i < count; i++) {
    const size = rand() < 0.15 ? 1.2 : 0.5;
    r.circle(rand() * r.width, rand() * maxY, size, [255, 255, 255], 0.5 + rand() * 0.5, 1);
  }
}

const WHITE: Rgb = [255, 255, 255];

/** The background gradient's colour at a fraction of the height. */
const skyAt = (d: PosterDesign, t: number): Rgb => [
  mix(d.top[0], d.bottom[0], t),
  mix(d.top[1], d.bottom[1], t),
  mix(d.top[2], d.bottom[2], t),
];

function paintMotif(r: Raster, d: PosterDesign, rand: () => number) {
  const { width: w, height: h } = r;
  switch (d.motif) {
    case 'sunset': {
      r.circle(w / 2, h * 0.42, 70, d.accent, 0.95, 40);
      // The sea: darker stripes with the sun's reflection broken into lines.
      r.rect(0, h * 0.5, w, h * 0.5, d.bottom, 0.9);
      for (let y = h * 0.52; y < h * 0.8; y += 7) {
        const half = 60 - (y - h * 0.52) * 0.12;
        r.rect(w / 2 - half, y, half * 2, 2, d.accent, 0.55);
      }
      r.rect(w * 0.68, h * 0.3, 10, h * 0.2, [20, 20, 30], 0.9); // the lighthouse
      r.rect(w * 0.675, h * 0.28, 12, 8, d.accent, 1);
      break;
    }
    case 'neon': {
      const horizon = h * 0.5;
      r.circle(w / 2, horizon - 30, 80, d.accent, 0.9, 25);
      for (let y = horizon - 60; y < horizon; y += 12) r.rect(0, y, w, 3 + (y - horizon + 60) / 12, d.top, 1);
      r.rect(0, horizon, w, h - horizon, [10, 5, 25], 1);
      for (let i = 1; i < 14; i++) {
        const y = horizon + (i * i * (h - horizon)) / 196;
        r.line(0, y, w, y, [0, 230, 255], 0.8);
      }
      for (let i = -10; i <= 10; i++) r.line(w / 2, horizon, w / 2 + i * 60, h, [0, 230, 255], 0.8);
      break;
    }
    case 'moon': {
      stars(r, rand, 160, h * 0.7);
      r.circle(w * 0.6, h * 0.3, 60, [250, 240, 200], 1, 30);
      r.circle(w * 0.6 + 28, h * 0.3 - 14, 56, skyAt(d, 0.3), 1, 2); // carve the crescent
      for (let i = 0; i < 4; i++) r.peak(rand() * w, h * (0.7 + rand() * 0.1), 60, d.bottom, 0.9);
      break;
    }
    case 'mountains': {
      r.circle(w * 0.25, h * 0.2, 30, d.accent, 0.9, 20);
      const layers: [number, number][] = [
        [0.35, 0.55],
        [0.45, 0.7],
        [0.6, 0.85],
      ];
      layers.forEach(([top, shade], i) => {
        for (let k = 0; k < 3; k++) {
          const x = rand() * w;
          const y = h * (top + rand() * 0.08);
          const c: Rgb = [
            mix(d.bottom[0], 255, shade * 0.3),
            mix(d.bottom[1], 255, shade * 0.3),
            mix(d.bottom[2], 255, shade * 0.3),
          ];
          r.peak(x, y, 120 + i * 30, i === 2 ? d.bottom : c, 1);
          if (i === 0) r.peak(x, y, 120, WHITE, 0.85, y + 28); // snow on the far peaks
        }
      });
      break;
    }
    case 'planet': {
      stars(r, rand, 220, h);
      const cx = w * 0.5;
      const cy = h * 0.38;
      r.circle(cx, cy, 75, d.accent, 1, 3);
      r.circle(cx - 20, cy - 22, 50, WHITE, 0.12, 20);
      for (let a = 0; a < Math.PI * 2; a += 0.002) {
        for (let ring = 105; ring < 125; ring += 1.5) {
          const x = cx + Math.cos(a) * ring;
          const y = cy + Math.sin(a) * ring * 0.28;
          // The ring passes behind the planet on its upper half.
          if (Math.sin(a) < 0 && Math.hypot(x - cx, y - cy) < 75) continue;
          r.blend(x, y, [240, 220, 190], 0.35);
        }
      }
      break;
    }
    case 'bokeh': {
      for (let i = 0; i < 40; i++) {
        const c: Rgb = rand() < 0.5 ? d.accent : [255, 210, 150];
        r.circle(rand() * w, rand() * h * 0.8, 8 + rand() * 30, c, 0.15 + rand() * 0.25, 6);
      }
      // A round loaf with three scores as the hero shape.
      r.circle(w / 2, h * 0.4, 60, [200, 130, 60], 1, 2);
      r.circle(w / 2 - 12, h * 0.4 - 14, 40, [235, 175, 100], 0.6, 20);
      for (let k = -1; k <= 1; k++) {
        for (let t = 0; t < 6; t++)
          r.line(
            w / 2 + k * 28 - 18 + t,
            h * 0.4 - 22,
            w / 2 + k * 28 + 12 + t,
            h * 0.4 + 22,
            [255, 225, 170],
            0.8,
          );
      }
      break;
    }
  }
}

function wrapTitle(title: string, maxChars: number): string[] {
  const lines: string[] = [];
  for (const word of title.toUpperCase().split(/\s+/)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + ' ' + word).length <= maxChars)
      lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** Paints a poster (gradient sky, a motif, the title in pixel letters) and returns it as a PNG. */
export function paintPoster(design: PosterDesign): Buffer {
  const r = new Raster(POSTER_WIDTH, POSTER_HEIGHT);
  // Deterministic, so a design always paints the same poster.
  const rand = seededRandom(design.seed);
  r.verticalGradient(design.top, design.bottom);
  paintMotif(r, design, rand);
  // A dark band at the foot keeps the title readable whatever the motif.
  for (let y = 0; y < 150; y++)
    r.rect(0, POSTER_HEIGHT - 150 + y, POSTER_WIDTH, 1, [8, 8, 14], (y / 150) * 0.9);
  const scale = 3;
  const lines = wrapTitle(design.title, Math.floor((POSTER_WIDTH - 30) / (6 * scale)));
  const lineHeight = 8 * scale + 4;
  let y = POSTER_HEIGHT - 28 - lines.length * lineHeight;
  for (const line of lines) {
    const x = Math.round((POSTER_WIDTH - (line.length * 6 - 1) * scale) / 2);
    r.text(line, x + 2, y + 2, scale, [0, 0, 0]);
    r.text(line, x, y, scale, WHITE);
    y += lineHeight;
  }
  r.rect(POSTER_WIDTH / 2 - 30, POSTER_HEIGHT - 20, 60, 3, design.accent);
  return encodePng(POSTER_WIDTH, POSTER_HEIGHT, r.pixels);
}
