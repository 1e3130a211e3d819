/**
 * The `.rax` workflow file (docs/workflows.md): a zip archive whose root holds `workflow.json`,
 * the manifest below; every other entry is a resource of the workflow, kept as it is. Other
 * programs (the agent, a customer's tooling) read and write these files byte for byte.
 */
export const RAX_FORMAT = 'opsdeck-workflow';
export const RAX_VERSION = 1;
export const RAX_MANIFEST = 'workflow.json';

export const RAX_LIMITS = {
  maxSteps: 500,
  /** The sum of every entry once inflated, the manifest included. */
  maxUnpackedBytes: 50 * 1024 * 1024,
  maxManifestBytes: 1024 * 1024,
  maxEntries: 10_000,
  /** Characters (UTF-16 code units, as zod's `.max` counts them) of a workflow's or step's name and an activity key. */
  maxNameLength: 255,
  maxDescriptionLength: 1024,
} as const;

/** The longest a step may be expected to take: one day. */
export const RAX_MAX_EXPECTED_SECONDS = 86_400;

export interface RaxStep {
  /** The key of the activity the step runs (`read-excel-range`): 1 to 255 characters. */
  activity: string;
  /** At most 255 characters; may be empty. */
  name: string;
  /** Greater than 0, at most 86,400. */
  expectedSeconds: number;
}

export interface RaxManifest {
  format: typeof RAX_FORMAT;
  version: typeof RAX_VERSION;
  name: string;
  description: string;
  /** 1 to 500 steps, in the order they run. */
  steps: RaxStep[];
}

export type RaxErrorReason = 'not-zip' | 'no-manifest' | 'invalid-manifest' | 'unsafe-path' | 'too-large' | 'corrupt';

/** Why bytes are not a `.rax` file, or a workflow cannot be written as one: the reason, and for people and logs the detail. */
export class RaxError extends Error {
  constructor(
    readonly reason: RaxErrorReason,
    detail: string,
  ) {
    super(detail);
    this.name = 'RaxError';
  }
}

const invalid = (detail: string) => new RaxError('invalid-manifest', detail);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown, what: string, max: number, { required = false } = {}): string {
  if (typeof value !== 'string') throw invalid(`${what} must be a string`);
  if (required && value.length === 0) throw invalid(`${what} must not be empty`);
  if (value.length > max) throw invalid(`${what} must be at most ${max} characters`);
  return value;
}

function parseStep(value: unknown, index: number): RaxStep {
  const what = `steps[${index}]`;
  if (!isObject(value)) throw invalid(`${what} must be an object`);
  const seconds = value.expectedSeconds;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0 || seconds > RAX_MAX_EXPECTED_SECONDS) {
    throw invalid(`${what}.expectedSeconds must be a number greater than 0 and at most ${RAX_MAX_EXPECTED_SECONDS}`);
  }
  return {
    activity: text(value.activity, `${what}.activity`, RAX_LIMITS.maxNameLength, { required: true }),
    name: text(value.name, `${what}.name`, RAX_LIMITS.maxNameLength),
    expectedSeconds: seconds,
  };
}

/**
 * Checks a parsed `workflow.json` and returns exactly its known members, in the order they are
 * written; members it does not know are dropped, so a later minor addition does not break readers.
 * Throws RaxError 'invalid-manifest' saying which rule the value breaks.
 */
export function parseManifest(value: unknown): RaxManifest {
  if (!isObject(value)) throw invalid('the manifest must be a JSON object');
  if (value.format !== RAX_FORMAT) throw invalid(`format must be "${RAX_FORMAT}"`);
  if (value.version !== RAX_VERSION) throw invalid(`version must be ${RAX_VERSION}`);
  const name = text(value.name, 'name', RAX_LIMITS.maxNameLength);
  const description = text(value.description, 'description', RAX_LIMITS.maxDescriptionLength);
  if (!Array.isArray(value.steps)) throw invalid('steps must be an array');
  if (value.steps.length === 0) throw invalid('a workflow needs at least one step');
  if (value.steps.length > RAX_LIMITS.maxSteps) throw invalid(`a workflow has at most ${RAX_LIMITS.maxSteps} steps`);
  return { format: RAX_FORMAT, version: RAX_VERSION, name, description, steps: value.steps.map(parseStep) };
}

/** The distinct activity keys of the steps, in the order they are first used. */
export const activityKeysOf = (manifest: RaxManifest): string[] => [
  ...new Set(manifest.steps.map((step) => step.activity)),
];

/**
 * Why an entry's path could escape the folder the archive is unpacked into, or null when it
 * cannot: an empty path, an absolute one (`/x`), a drive letter (`C:`), a `..` segment, a
 * backslash (a separator on Windows, so `a\..\..\b` escapes there) or a NUL (which ends the name
 * early in C APIs).
 */
export function unsafePathReason(path: string): string | null {
  if (path.length === 0) return 'an entry has an empty path';
  if (path.includes('\0')) return 'an entry path contains NUL';
  if (path.includes('\\')) return `the entry path "${path}" contains a backslash`;
  if (path.startsWith('/')) return `the entry path "${path}" is absolute`;
  if (/^[a-zA-Z]:/.test(path)) return `the entry path "${path}" starts with a drive letter`;
  if (path.split('/').includes('..')) return `the entry path "${path}" contains a ".." segment`;
  return null;
}
