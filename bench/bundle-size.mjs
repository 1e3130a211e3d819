// The console's initial JavaScript: what the first page (index.html) loads before any route
// chunk, gzipped. Builds the console first.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root } from './lib.mjs';

execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
const dist = path.join(root, 'apps/web/dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
let total = 0;
for (const file of new Set(files)) {
  const bytes = readFileSync(path.join(dist, file));
  const gzipped = gzipSync(bytes, { level: 9 }).length;
  total += gzipped;
  console.log(
    `${file.padEnd(50)} ${(bytes.length / 1024).toFixed(1).padStart(8)} kB  ${(gzipped / 1024).toFixed(1).padStart(7)} kB gzip`,
  );
}
console.log(`initial JavaScript: ${(total / 1024).toFixed(1)} kB gzip (aim: at most 250 kB)`);
