import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { bootstrap } from './bootstrap.ts';
import { runWorkers } from './cluster.ts';
import { ConfigError, loadConfig } from './config.ts';
import { warmUp } from './warm-up.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const announce = (messages: string[], workers = 1) => {
    const url = config.publicUrl;
    const processes = workers > 1 ? ` (${workers} worker processes)` : '';
    console.log(`\n  Cinema is running at ${url}${processes}\n  API docs: ${url}/api/docs`);
    if (config.paymentProvider === 'local') {
      console.log(
        '  Test mode: no real payments (PAYMENT_PROVIDER=local; set PAYMENT_PROVIDER=stripe to sell)',
      );
    }
    for (const line of messages) console.log(`  ${line}`);
    console.log('');
  };

  if (cluster.isPrimary && config.workers > 1) {
    // Migrations and the start-up work run once, here, before any worker opens the database.
    const setup = await buildApp(config);
    await setup.ready();
    const report = await bootstrap(setup);
    await setup.close();
    runWorkers(config.workers, () => announce(report.messages, config.workers));
    return;
  }

  const app = await buildApp(config);
  await app.ready();
  // A worker's primary has done the start-up work already.
  const report = cluster.isWorker ? { messages: [] } : await bootstrap(app);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  // Each process pays its first-use costs before its first customer does (warm-up.ts).
  const warmed = config.warmUp ? await warmUp(app) : null;
  if (warmed) app.log.info(warmed, 'warmed up before listening');
  await app.listen({ port: config.port, host: config.host });
  if (!cluster.isWorker) announce(report.messages);
}

main().catch((err) => {
  // A configuration the server refuses (a bad variable, an unsafe ADMIN_EMAIL) is said in one sentence.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
