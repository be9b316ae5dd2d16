// `npm start`: builds the web app when it is missing or older than its sources, then runs the server.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureWebBuilt, root } from './build-web.mjs';

try {
  ensureWebBuilt();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/server.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
