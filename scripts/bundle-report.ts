// `npm run bundle-report`: builds the web app and prints what a first load of /login, /movies and the seat map
// downloads (gzip and brotli bytes of JS and CSS, following the build manifest from index.html's entry).
// `--no-build` measures the current apps/web/dist; `--json` prints the figures as JSON; `--files` lists the files.
import { buildWebApp, bundleTable, JS_GZIP_TARGETS, kB, measureFirstLoads } from './bench/bundle.ts';

const args = new Set(process.argv.slice(2));
if (!args.has('--no-build')) buildWebApp();
const loads = await measureFirstLoads();
if (args.has('--json')) {
  console.log(JSON.stringify(loads, null, 2));
} else {
  console.log(`\n${bundleTable(loads)}\n`);
  if (args.has('--files')) for (const l of loads) console.log(`${l.route}: ${l.files.join(', ')}`);
  for (const l of loads) {
    const target = JS_GZIP_TARGETS[l.route];
    if (target && l.js.gzip > target)
      console.log(`${l.route}: ${kB(l.js.gzip)} of JS (gzip) is over its target of ${kB(target)}.`);
  }
}
