import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerErrorHandling } from './errors';
import { registerFormData } from './form-data';

const Upload = z.object({
  name: z.string(),
  count: z.coerce.number().int(),
  file: z.object({ filename: z.string(), bytes: z.instanceof(Uint8Array) }).optional(),
});

const app = Fastify().withTypeProvider<ZodTypeProvider>();

beforeAll(async () => {
  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app, { servesConsole: () => false });
  await app.register(async (scope) => {
    await registerFormData(scope, { files: ['file'], maxFileBytes: 16, fileTooLarge: 'ERROR_ACCOUNT_REGFILE_INVALID' });
    scope.withTypeProvider<ZodTypeProvider>().post('/upload', { schema: { body: Upload } }, async (request) => ({
      name: request.body.name,
      count: request.body.count,
      file: request.body.file
        ? { filename: request.body.file.filename, text: Buffer.from(request.body.file.bytes).toString('utf8') }
        : null,
    }));
  });
  // Outside the scope, multipart is not taken.
  app.post('/elsewhere', async () => ({ ok: true }));
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

/** A FormData body as bytes and its content type, for inject. */
async function multipart(form: FormData) {
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type')! },
  };
}

describe('form data', () => {
  it('turns multipart fields and the declared file into the plain body the schema validates', async () => {
    const form = new FormData();
    form.set('name', 'Amara');
    form.set('count', '3');
    form.set('file', new Blob(['hello']), 'hello.dat');
    const answer = await app.inject({ method: 'POST', url: '/upload', ...(await multipart(form)) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ name: 'Amara', count: 3, file: { filename: 'hello.dat', text: 'hello' } });
  });

  it('takes JSON too, where a file field is dropped: a file only ever comes as an upload', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: '/upload',
      payload: { name: 'Amara', count: 1, file: { filename: 'x.dat', bytes: 'aGVsbG8=' } },
    });
    expect(answer.json()).toEqual({ name: 'Amara', count: 1, file: null });
  });

  it("answers a file over the limit with the area's key on its field, at exactly the limit it is taken", async () => {
    const form = new FormData();
    form.set('name', 'Amara');
    form.set('count', '1');
    form.set('file', new Blob(['x'.repeat(17)]), 'big.dat');
    const answer = await app.inject({ method: 'POST', url: '/upload', ...(await multipart(form)) });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      key: 'ERROR_ACCOUNT_REGFILE_INVALID',
      fields: { file: 'ERROR_ACCOUNT_REGFILE_INVALID' },
    });
    form.set('file', new Blob(['x'.repeat(16)]), 'fits.dat');
    expect((await app.inject({ method: 'POST', url: '/upload', ...(await multipart(form)) })).statusCode).toBe(200);
  });

  it('ignores an undeclared file, keeps the first of a repeated field, and refuses a field posing as a file', async () => {
    const form = new FormData();
    form.append('name', 'first');
    form.append('name', 'second');
    form.set('count', '2');
    form.set('other', new Blob(['zzz']), 'other.bin');
    const answer = await app.inject({ method: 'POST', url: '/upload', ...(await multipart(form)) });
    expect(answer.json()).toEqual({ name: 'first', count: 2, file: null });

    const posing = new FormData();
    posing.set('name', 'x');
    posing.set('count', '1');
    posing.set('file', 'not a file');
    expect((await app.inject({ method: 'POST', url: '/upload', ...(await multipart(posing)) })).json()).toMatchObject({
      file: null,
    });
  });

  it('answers broken multipart with 400 and too many parts with 413, never a 500', async () => {
    const broken = [{ 'content-type': 'multipart/form-data' }, { 'content-type': 'multipart/form-data; boundary=b' }];
    for (const headers of broken) {
      const answer = await app.inject({ method: 'POST', url: '/upload', headers, payload: '--b\r\nContent-Disp' });
      expect(answer.statusCode, JSON.stringify(headers)).toBe(400);
    }
    const many = new FormData();
    for (let i = 0; i < 20; i += 1) many.set(`field${i}`, 'x');
    expect((await app.inject({ method: 'POST', url: '/upload', ...(await multipart(many)) })).statusCode).toBe(413);
    const twoFiles = new FormData();
    twoFiles.append('file', new Blob(['a']), 'a.dat');
    twoFiles.append('file', new Blob(['b']), 'b.dat');
    expect((await app.inject({ method: 'POST', url: '/upload', ...(await multipart(twoFiles)) })).statusCode).toBe(413);
    const outside = new FormData();
    outside.set('name', 'x');
    expect((await app.inject({ method: 'POST', url: '/elsewhere', ...(await multipart(outside)) })).statusCode).toBe(
      415,
    );
  });
});
