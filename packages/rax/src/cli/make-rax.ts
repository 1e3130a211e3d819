// `npm run make-rax -- --name "Invoice intake" [--description "…"] --step <activity key>
//  [--step <key>:<step name>:<expectedSeconds> …] [--resource path/in/archive=./local/file …]
//  [--out FILE.rax]`: writes a workflow file (docs/workflows.md).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { RAX_MAX_EXPECTED_SECONDS, RaxError, type RaxStep } from '../format';
import { writeRax } from '../write';

const USAGE = `Usage: npm run make-rax -- --name "Invoice intake" [--description "…"]
  --step <activity key>[:<step name>[:<expected seconds>]] [--step …]
  [--resource <path/in/archive>=<local file> …] [--out FILE.rax]`;
const DEFAULT_SECONDS = 30;

/** Where the user ran `npm run …` from: npm runs root scripts in the repository's root. */
const userPath = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

class UsageError extends Error {}

/** `read-excel-range` → `Read excel range`. */
const stepNameOf = (key: string) => {
  const words = key.replace(/[-_.\s]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * `key`, `key:name` or `key:name:seconds`; the name may hold colons (the last part is the seconds
 * when there are three or more), and an empty one is made from the key (`delay::5`).
 */
function parseStep(text: string): RaxStep {
  const [activity = '', ...rest] = text.split(':');
  const seconds = rest.length >= 2 ? rest.pop()!.trim() : '';
  const name = rest.join(':').trim();
  if (activity.trim() === '') throw new UsageError(`--step "${text}" has no activity key`);
  const expectedSeconds = seconds === '' ? DEFAULT_SECONDS : Number(seconds);
  if (!/^\d+(\.\d+)?$/.test(seconds || '0') || expectedSeconds <= 0 || expectedSeconds > RAX_MAX_EXPECTED_SECONDS) {
    throw new UsageError(
      `--step "${text}": the expected seconds must be a number greater than 0 and at most ${RAX_MAX_EXPECTED_SECONDS}`,
    );
  }
  return { activity: activity.trim(), name: name || stepNameOf(activity), expectedSeconds };
}

/** Characters Windows and the server refuse in a file name become `-`. */
const fileNameOf = (name: string) => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '-').trim();
  return `${safe.replace(/^\.+/, '') || 'workflow'}.rax`;
};

function readResource(spec: string): [string, Buffer] {
  const at = spec.indexOf('=');
  if (at <= 0 || at === spec.length - 1) {
    throw new UsageError(`--resource "${spec}" must be <path in archive>=<local file>`);
  }
  const file = userPath(spec.slice(at + 1));
  try {
    return [spec.slice(0, at), readFileSync(file)];
  } catch (error) {
    throw new UsageError(`--resource "${spec}": cannot read ${file}: ${(error as Error).message}`);
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      description: { type: 'string' },
      step: { type: 'string', multiple: true },
      resource: { type: 'string', multiple: true },
      out: { type: 'string' },
    },
    strict: true,
  });
  const name = values.name?.trim();
  if (!name) throw new UsageError('--name is required');
  if (!values.step?.length) throw new UsageError('at least one --step is required');
  const steps = values.step.map(parseStep);
  const resources = Object.fromEntries((values.resource ?? []).map(readResource));
  const out = userPath(values.out ?? fileNameOf(name));
  if (!out.toLowerCase().endsWith('.rax')) throw new UsageError('the file name must end in .rax');

  const bytes = await writeRax({ name, description: values.description ?? '', steps }, resources);
  writeFileSync(out, bytes);
  console.log(`Wrote ${out} (${steps.length} ${steps.length === 1 ? 'step' : 'steps'})`);
}

const isUsageError = (error: unknown) =>
  error instanceof UsageError || String((error as { code?: unknown })?.code).startsWith('ERR_PARSE_ARGS');

main().catch((error: unknown) => {
  if (error instanceof RaxError) console.error(`Not a valid workflow: ${error.message}`);
  else console.error(error instanceof Error ? error.message : String(error));
  if (error instanceof RaxError || isUsageError(error)) console.error(USAGE);
  process.exit(1);
});
