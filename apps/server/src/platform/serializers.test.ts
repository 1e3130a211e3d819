import { SessionCheck } from '@opsdeck/contract/auth';
import { ApiErrorBody } from '@opsdeck/contract/errors';
import { Health } from '@opsdeck/contract/health';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flatObjectSchema, serializerCompiler } from './serializers';

const compile = (schema: unknown) => serializerCompiler({ schema, method: 'GET', url: '/api/x', httpStatus: '200' });

describe('response serializers', () => {
  it('precompile the hot flat answers and write what zod would', () => {
    expect(flatObjectSchema(SessionCheck)).not.toBeNull();
    expect(flatObjectSchema(Health)).not.toBeNull();
    const answer = { authenticated: true as const, userId: 7, tenantId: null, expiresAt: 1_700_000_000_000 };
    expect(compile(SessionCheck)(answer)).toBe(JSON.stringify(SessionCheck.parse(answer)));
    const health = { status: 'ok', database: 'pglite', version: '0.1.0' };
    expect(compile(Health)(health)).toBe(JSON.stringify(health));
  });

  it('never write a property the schema does not list (a password hash stays in)', () => {
    const answer = { authenticated: true, userId: 7, tenantId: 'a', expiresAt: 1, passwordHash: 'secret' };
    expect(compile(SessionCheck)(answer)).not.toContain('secret');
  });

  it('fail an answer that misses a property', () => {
    expect(() => compile(SessionCheck)({ authenticated: true, tenantId: null, expiresAt: 1 })).toThrow();
  });

  it('leave nested answers, transforms and defaults to zod, which checks them as it writes', () => {
    expect(flatObjectSchema(ApiErrorBody)).toBeNull();
    expect(flatObjectSchema(z.object({ at: z.number().transform(String) }))).toBeNull();
    expect(flatObjectSchema(z.object({ archived: z.boolean().default(false) }))).toBeNull();
    expect(flatObjectSchema(z.array(z.number()))).toBeNull();
    expect(() => compile(z.object({ list: z.array(z.number()) }))({ list: ['x'] })).toThrow();
  });
});
