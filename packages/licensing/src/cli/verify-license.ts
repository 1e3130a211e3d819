// `npm run verify-license -- FILE.lic [--public-key KEY.pem | --server URL]`: whether a licence file
// is genuine (signed by the server's key), unexpired, and for whom and which machines. The key is
// read from a PEM file, or fetched from the server's GET /api/license/public-key (default
// http://localhost:8080).
import { readFileSync } from 'node:fs';
import { AGENT_APP_KEY, HEADERS } from '@opsdeck/contract/http';
import { checkLicenseFile } from '../license-file';
import { args, userPath } from './args';

const USAGE = 'Usage: npm run verify-license -- FILE.lic [--public-key KEY.pem | --server http://localhost:8080]';
const { values, positionals } = args({ 'public-key': { type: 'string' }, server: { type: 'string' } }, USAGE);
const [file] = positionals;
if (!file) {
  console.error(USAGE);
  process.exit(2);
}

async function publicKey(): Promise<string> {
  if (values['public-key']) return readFileSync(userPath(values['public-key']), 'utf8');
  const server = values.server ?? 'http://localhost:8080';
  const url = new URL('/api/license/public-key', server);
  const answer = await fetch(url, { headers: { [HEADERS.appKey]: AGENT_APP_KEY } }).catch((error: unknown) => {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new Error(
      `No Opsdeck server answered at ${url} (${cause}). Name the server that issued the licence with ` +
        '--server URL, or its public key with --public-key KEY.pem.',
    );
  });
  if (!answer.ok) throw new Error(`${server} answered ${answer.status} for its public key`);
  return answer.text();
}

try {
  const check = checkLicenseFile(readFileSync(userPath(file), 'utf8'), await publicKey());
  if (!check.valid) {
    console.log(`NOT GENUINE: ${check.reason}`);
    process.exit(1);
  }
  const { payload } = check;
  const expires = new Date(payload.license.expirationDate).toISOString();
  console.log(check.expired ? `GENUINE, BUT EXPIRED on ${expires}` : `GENUINE, valid until ${expires}`);
  console.log(`  key        ${payload.key}`);
  console.log(`  company    ${payload.company.name} (licence ${payload.license.id}, ${payload.license.type})`);
  console.log(`  person     ${payload.fullName} <${payload.emailAddress}>`);
  console.log(`  machines   ${payload.macAddresses.join(', ')}`);
  console.log(`  premium    ${payload.premiumActivities.join(', ') || '-'}`);
  process.exit(check.expired ? 1 : 0);
} catch (error) {
  console.error(String(error instanceof Error ? error.message : error));
  process.exit(2);
}
