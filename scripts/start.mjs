// `npm start`: install what is missing, build the console, then run the server (which migrates
// the database and, on a fresh embedded one, seeds the demo) on http://localhost:8080.
import { spawn } from 'node:child_process';
import { ensureConsoleBuilt, ensureDependencies, root } from './lib.mjs';

ensureDependencies();
ensureConsoleBuilt();

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit' });
let fleet;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    fleet?.kill(signal);
    server.kill(signal);
  });
}
server.on('exit', (code, signal) => {
  fleet?.kill('SIGTERM');
  process.exit(code ?? (signal ? 1 : 0));
});

// With the embedded demo, a simulated agent per demo employee (apps/agent) acts out their working
// day on the monitor, and a few per company keep the Events page alive, from the first start.
// DEMO=0 (or a DATABASE_URL) runs none.
if (!process.env.DATABASE_URL && process.env.DEMO !== '0') void startDemoAgents();

async function startDemoAgents() {
  const port = process.env.PORT || '8080';
  const host = !process.env.HOST || ['0.0.0.0', '::'].includes(process.env.HOST) ? '127.0.0.1' : process.env.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // The first start migrates and seeds before it listens: wait for it, as long as the server lives.
  while (server.exitCode === null && server.signalCode === null) {
    try {
      await fetch(`${url}/api/health`);
      break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (server.exitCode !== null || server.signalCode !== null) return;
  fleet = spawn(process.execPath, ['--import', 'tsx', 'apps/agent/src/cli/fleet.ts', '--demo', '--url', url], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  fleet.on('exit', () => {
    fleet = undefined;
  });
}
