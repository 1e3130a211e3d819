/**
 * Hostile requests built from the server's own OpenAPI document: every operation gets values a
 * careless or malicious client might send. Deterministic for a seed, so a failure can be replayed.
 */

/** mulberry32: a tiny seeded PRNG (no dependency; the same seed gives the same requests). */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    below: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof seededRandom>;

const deep = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { nested: value };
  return value;
};

/** Values of any JSON type that break assumptions: past 32 and 53 bits, NUL, lone surrogates, huge, deep. */
export const HOSTILE_JSON: readonly unknown[] = [
  4_294_967_296,
  2_147_483_648,
  -2_147_483_649,
  2 ** 53 + 2,
  -1,
  0,
  -0,
  1.5,
  1e308,
  -1e308,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  'x'.repeat(10_000),
  '\\/:*?"|<>',
  '4294967296',
  '-1',
  'NaN',
  'null',
  '2026-13-45',
  null,
  true,
  false,
  [],
  [null],
  {},
  { __proto__: { polluted: true } },
  JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
  deep(200),
  Array.from({ length: 1_000 }, (_, i) => i),
];

/** Text for path segments and query values. */
export const HOSTILE_TEXT: readonly string[] = [
  '4294967296',
  '2147483648',
  '9007199254740993',
  '1e400',
  '-1',
  '0',
  '-0',
  '1.5',
  '0x10',
  'abc',
  '',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%C0%AF',
  'x'.repeat(10_000),
  '__proto__',
  'constructor',
  '..%2F..%2Fetc%2Fpasswd',
  'true',
  '1,2,3',
  '1',
  '2',
];

/** X-Tenant-Id values an admin's client might send by mistake or on purpose. */
export const HOSTILE_TENANTS: readonly string[] = [
  'not-a-uuid',
  '4294967296',
  '00000000-0000-0000-0000-000000000000',
  '6f1c1f2e-9b7a-4c1e-8d3a-000000000000',
  'x'.repeat(2_000),
  '%00',
  '__proto__',
  ' ',
];

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
};

export type OpenApi = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

function resolve(doc: OpenApi, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 10; hops += 1) {
    const name = current.$ref.split('/').pop() ?? '';
    current = doc.components?.schemas?.[name] ?? {};
  }
  return current;
}

/** A plausible value for a schema (so that a request gets past the first field to the next). */
function plausible(doc: OpenApi, raw: Schema | undefined, random: Random, depth = 0): unknown {
  const schema = resolve(doc, raw);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return plausible(doc, random.pick(variants), random, depth + 1);
  if (schema.allOf?.length) return plausible(doc, schema.allOf[0], random, depth + 1);
  if (schema.enum?.length) return random.pick(schema.enum);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return random.pick([1, 2, 3, 5, 30, schema.minimum ?? 1]);
    case 'boolean':
      return random.chance(0.5);
    case 'string':
      return random.pick(['Hostile Name', 'user@example.test', '2026-11-23', '09:00', 'data:image/png;base64,AAAA']);
    case 'array':
      return depth > 4 ? [] : [plausible(doc, schema.items, random, depth + 1)];
    case 'object':
      return depth > 4 ? {} : hostileObject(doc, schema, random, depth + 1);
    default:
      return 'value';
  }
}

/** An object of a schema whose members are each plausible or hostile, with extra and prototype members. */
function hostileObject(doc: OpenApi, schema: Schema, random: Random, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(schema.properties ?? {})) {
    if (random.chance(0.15)) continue;
    result[key] = random.chance(0.5) ? random.pick(HOSTILE_JSON) : plausible(doc, member, random, depth);
  }
  if (random.chance(0.2)) result.unknownMember = random.pick(HOSTILE_JSON);
  if (random.chance(0.1)) Object.defineProperty(result, '__proto__', { value: { polluted: true }, enumerable: true });
  return result;
}

export type HostileRequest = {
  method: string;
  path: string;
  /** Bytes when the body is not even UTF-8. */
  body?: string | Uint8Array;
  contentType?: string;
  headers?: Record<string, string>;
};

/** A body for a failure message, whichever form it has. */
export const bodyExcerpt = (body: HostileRequest['body'], length = 300) =>
  (typeof body === 'string' ? body : body ? Buffer.from(body).toString('latin1') : '').slice(0, length);

/** A flat form body (name=value&…) of an object's members, each value plausible or hostile text. */
function formBody(value: unknown, random: Random): string {
  const members = value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : ['value'];
  return members
    .map((key) => `${encodeURIComponent(key)}=${random.chance(0.6) ? random.pick(HOSTILE_TEXT) : '1'}`)
    .join('&');
}

/** One hostile request for an operation of the document. */
export function hostileRequest(doc: OpenApi, method: string, template: string, random: Random): HostileRequest {
  const operation = doc.paths[template]?.[method] ?? {};
  const params = operation.parameters ?? [];
  const path = template.replace(/\{([^}]+)\}/g, () =>
    random.chance(0.8) ? random.pick(HOSTILE_TEXT) : String(random.below(5) + 1),
  );
  const query = params
    .filter((param) => param.in === 'query' && random.chance(0.7))
    .map((param) => {
      const value = random.chance(0.7)
        ? random.pick(HOSTILE_TEXT)
        : encodeURIComponent(String(plausible(doc, param.schema, random)));
      return `${encodeURIComponent(param.name)}=${value}`;
    });
  if (random.chance(0.1)) query.push(`__proto__=${random.pick(HOSTILE_TEXT)}`, 'unknown=1');
  const url = `/api${path.startsWith('/api') ? path.slice(4) : path}${query.length ? `?${query.join('&')}` : ''}`;

  // Now and then a tenant header no company has, or one that is not an id at all.
  const headers = random.chance(0.15) ? { 'x-tenant-id': random.pick(HOSTILE_TENANTS) } : undefined;
  const base = { method: method.toUpperCase(), path: url, ...(headers ? { headers } : {}) };

  const jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
  if (!jsonSchema && !['post', 'put', 'patch'].includes(method)) return base;
  const schema = resolve(doc, jsonSchema);
  const shaped = () =>
    schema.type === 'array' || schema.items
      ? [plausible(doc, schema.items, random, 1)]
      : plausible(doc, schema, random);
  const json = (body: string | Uint8Array, contentType = 'application/json') => ({ ...base, body, contentType });
  switch (random.below(14)) {
    case 0:
      return json('{"broken": ');
    case 1:
      return json(`${'['.repeat(5_000)}${']'.repeat(5_000)}`);
    case 2:
      return json(JSON.stringify(random.pick(HOSTILE_JSON)));
    case 3:
      return json(formBody(shaped(), random), 'application/x-www-form-urlencoded');
    case 4:
      return json(JSON.stringify(shaped()), random.pick(['text/plain', 'application/xml', 'multipart/form-data']));
    case 5:
      // Not UTF-8 at all: a lone continuation byte and an overlong NUL inside a string.
      return json(new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0x80, 0xc0, 0x80, 0x22, 0x7d]));
    case 6:
      return json('');
    default:
      return json(JSON.stringify(shaped()));
  }
}
