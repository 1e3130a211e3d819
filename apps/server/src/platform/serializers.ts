import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  [keyword: string]: unknown;
};

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);
/** Keywords a scalar property may carry: none of them changes what is written. */
const SCALAR_KEYWORDS = new Set(['type', 'const', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength', 'format']);

function isScalar(property: JsonSchema) {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  return (
    types.length > 0 &&
    types.every((type) => type !== undefined && SCALARS.has(type)) &&
    Object.keys(property).every((keyword) => SCALAR_KEYWORDS.has(keyword))
  );
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io }) as JsonSchema;
  // A schema with a `meta({ id })` comes back as a reference to its definition.
  const name = json.$ref?.replace('#/$defs/', '');
  return name && json.$defs?.[name] ? json.$defs[name] : json;
}

/**
 * The JSON Schema of an answer that is one object of scalar properties (a session check, the
 * health probe, `{ ok: true }`), or null for any other. Only such answers are precompiled: their
 * written form is the same whichever way they are serialized, and the written form equals the
 * value (no transform, codec or default: the input and output schemas agree).
 */
export function flatObjectSchema(schema: unknown): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  let output: JsonSchema;
  let input: JsonSchema;
  try {
    output = toJsonSchema(schema, 'output');
    input = toJsonSchema(schema, 'input');
  } catch {
    return null; // a transform or another shape JSON Schema cannot express
  }
  if (output.type !== 'object' || !output.properties) return null;
  if (!Object.values(output.properties).every(isScalar)) return null;
  if (JSON.stringify(input.properties) !== JSON.stringify(output.properties)) return null;
  return output;
}

/**
 * Response serializers: flat answers, the hot ones (GET /api/test, /api/health), through a
 * serializer fast-json-stringify compiles once from their JSON Schema (unlisted properties are
 * dropped, as zod drops them); every other answer through its zod schema, checked as it is
 * written. The precompiled ones are not checked at run time: the route's zod type checks the
 * handler's answer at compile time, and a missing property still fails the request.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = (route) => {
  const flat = flatObjectSchema(route.schema);
  if (flat) return fastJson({ ...flat, $schema: undefined } as Parameters<typeof fastJson>[0]);
  return zodSerializerCompiler(route as Parameters<typeof zodSerializerCompiler>[0]);
};
