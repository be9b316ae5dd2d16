import type { CreateHallBody, LayoutCell, LayoutRow } from '@cinema/contract';

/**
 * A row drawn as text, one character a cell: `s` standard, `p` premium, `w` wheelchair space, `c` companion seat,
 * `=` sofa seat (each two in a row make one sofa), `x` a blocked standard seat, `X` a blocked premium seat, `.` a gap.
 */
export function drawRow(label: string, cells: string): LayoutRow {
  let sofa = 0;
  let half = 0;
  return {
    label,
    cells: [...cells].map((ch): LayoutCell => {
      switch (ch) {
        case '.':
          return { kind: 'GAP' };
        case '=': {
          if (half++ % 2 === 0) sofa++;
          return { kind: 'SEAT', type: 'SOFA', pairId: `${label}${sofa}` };
        }
        case 's':
          return { kind: 'SEAT', type: 'STANDARD' };
        case 'p':
          return { kind: 'SEAT', type: 'PREMIUM' };
        case 'w':
          return { kind: 'SEAT', type: 'WHEELCHAIR' };
        case 'c':
          return { kind: 'SEAT', type: 'COMPANION' };
        case 'x':
          return { kind: 'SEAT', type: 'STANDARD', blocked: true };
        case 'X':
          return { kind: 'SEAT', type: 'PREMIUM', blocked: true };
        default:
          throw new Error(`Unknown cell "${ch}" in row ${label}`);
      }
    }),
  };
}

const draw = (rows: string[]): LayoutRow[] =>
  rows.map((cells, i) => drawRow(String.fromCharCode(65 + i), cells));

/**
 * The halls an empty cinema starts with: aisles, a premium block, a sofa row at the back, two wheelchair spaces with
 * their companion seats near the front and a few house seats kept off sale, as a real cinema has.
 */
export const DEMO_HALLS: CreateHallBody[] = [
  {
    name: 'Hall 1',
    layout: {
      rows: draw([
        'ss.wcsssscw.ss',
        'ss.ssssssss.ss',
        'ss.ssssssss.ss',
        'ss.spppppps.ss',
        'ss.spppppps.ss',
        'ss.spXXXXps.ss',
        'ss.ssssssss.ss',
        '==.========.==',
      ]),
    },
  },
  {
    name: 'Hall 2',
    layout: {
      rows: draw([
        'wcsssss.ssssscw',
        'sssssss.sssssss',
        'sssssss.sssssss',
        'sssssss.sssssss',
        'sssssss.sssssss',
        'ssspppp.ppppsss',
        'ssspppp.ppppsss',
        'sssssss.sssssss',
        'xssssss.ssssssx',
        '======...======',
      ]),
    },
  },
  {
    name: 'Hall 3',
    layout: {
      rows: draw([
        'sss.wcsssssssscw.sss',
        'sss.ssssssssssss.sss',
        'sss.ssssssssssss.sss',
        'sss.ssssssssssss.sss',
        'sss.ssssssssssss.sss',
        'sss.ssppppppppss.sss',
        'sss.ssppppppppss.sss',
        'sss.ssppXXXXppss.sss',
        'sss.ssssssssssss.sss',
        'sss.ssssssssssss.sss',
        'sss.ssssssssssss.sss',
        '==..============..==',
      ]),
    },
  },
];
