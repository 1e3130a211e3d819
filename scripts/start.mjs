// `npm start`: install what is missing, build the console, then run the server (which migrates
// the database and, on a fresh embedded one, seeds the demo) on http://localhost:8080.
import { spawn } from 'node:child_process';
import { ensureConsoleBuilt, ensureDependencies, root } from './lib.mjs';

ensureDependencies();
ensureConsoleBuilt();

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
