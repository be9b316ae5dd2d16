// `npm start`: builds the web app and bundles the server when either is missing or older than its sources, then
// runs the bundled server with plain Node.js (and the memory settings of `serverCommand`).
import { spawn } from 'node:child_process';
import { ensureServerBuilt, serverCommand } from './build-server.mjs';
import { ensureWebBuilt, root } from './build-web.mjs';

try {
  ensureWebBuilt();
  await ensureServerBuilt();
} catch (err) {
  console.error(err.message);
  process.exit(1);
}

const command = serverCommand({ NODE_ENV: 'production', ...process.env });
const server = spawn(process.execPath, command.args, { cwd: root, stdio: 'inherit', env: command.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
