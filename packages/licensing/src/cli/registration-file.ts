// `npm run registration-file -- --name "Amara Okoye" --email amara@example.com --mac AA:BB:CC:DD:EE:FF
//  [--mac …] [--hostname NAME] [--out FILE]`: writes a registration file (docs/licensing.md).
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { RegistrationFileError, registrationFileText } from '../registration';
import { args, userPath } from './args';

const USAGE =
  'Usage: npm run registration-file -- --name "Full Name" --email user@example.com --mac AA:BB:CC:DD:EE:FF [--mac …] [--hostname NAME] [--out FILE.dat]';
const { values } = args(
  {
    name: { type: 'string' },
    email: { type: 'string' },
    mac: { type: 'string', multiple: true },
    hostname: { type: 'string' },
    out: { type: 'string' },
  },
  USAGE,
);

try {
  const text = registrationFileText({
    fullName: values.name ?? '',
    emailAddress: values.email ?? '',
    macAddresses: (values.mac ?? []).flatMap((mac) => mac.split(',')),
    hostname: values.hostname ?? hostname(),
  });
  const out = userPath(values.out ?? 'registration.dat');
  if (!out.toLowerCase().endsWith('.dat')) throw new Error('The file name must end in .dat');
  writeFileSync(out, text);
  console.log(`Wrote ${out}`);
} catch (error) {
  console.error(error instanceof RegistrationFileError ? `Not a valid registration: ${error.message}` : String(error));
  console.error(USAGE);
  process.exit(1);
}
