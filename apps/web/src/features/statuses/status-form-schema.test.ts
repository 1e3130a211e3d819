import { describe, expect, it } from 'vitest';
import { emptyStatusForm, readIconFile, statusFormSchema, toSaveStatus } from './status-form-schema';

/** A png header that says `width` × `height` (the reader looks no further than IHDR). */
function pngHeader(width: number, height: number, extra = 0): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(33 + extra);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  return bytes;
}
const file = (bytes: Uint8Array<ArrayBuffer>, name = 'icon.png', type = 'image/png') =>
  new File([bytes], name, { type });

describe('readIconFile', () => {
  it.each([24, 48, 128])('accepts a %i px square png and reads it into a data URL', async (size) => {
    const choice = await readIconFile(file(pngHeader(size, size)));
    expect(choice.problem).toBeNull();
    expect(choice.fileName).toBe('icon.png');
    expect(choice.dataUrl).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
  });

  it.each([
    ['a 32 px png', file(pngHeader(32, 32)), 'ERROR_STATUS_ICON_INVALID_DIMENSION'],
    ['an oblong png', file(pngHeader(24, 48)), 'ERROR_STATUS_ICON_INVALID_DIMENSION'],
    ['a png over 512000 bytes', file(pngHeader(24, 24, 512_000)), 'ERROR_STATUS_ICON_TOO_BIG'],
    [
      'text named .png',
      file(new TextEncoder().encode('just some text here, not an image')),
      'ERROR_STATUS_ICON_UNSUPPORTED',
    ],
    [
      'a png named .gif with another type',
      file(pngHeader(24, 24), 'icon.gif', 'image/gif'),
      'ERROR_STATUS_ICON_UNSUPPORTED',
    ],
    ['an empty file', file(new Uint8Array(0)), 'ERROR_STATUS_ICON_REQUIRED'],
  ])('refuses %s', async (_case, chosen, key) => {
    expect((await readIconFile(chosen)).problem).toBe(key);
  });
});

describe('statusFormSchema', () => {
  const messages = (result: ReturnType<ReturnType<typeof statusFormSchema>['safeParse']>) =>
    // The first issue of each field, as the form and the server show it.
    Object.fromEntries(
      [...(result.error?.issues ?? [])].reverse().map((issue) => [issue.path.join('.'), issue.message]),
    );

  it('fails an empty create with the spec keys, and an admin without a company', () => {
    const result = statusFormSchema({ creating: true, needsCompany: true }).safeParse(emptyStatusForm(null));
    expect(messages(result)).toEqual({
      company: 'ERROR_COMPANY_REQUIRED',
      name: 'ERROR_GENERAL_NAME_REQUIRED',
      departmentId: 'ERROR_STATUS_DEPARTMENT_REQUIRED',
      icon: 'ERROR_STATUS_ICON_REQUIRED',
    });
  });

  it('lets an update keep its icon, and checks threshold and colour', () => {
    const schema = statusFormSchema({ creating: false, needsCompany: false });
    const values = { ...emptyStatusForm('t'), name: 'Away', departmentId: '4' };
    expect(schema.safeParse(values).success).toBe(true);
    expect(messages(schema.safeParse({ ...values, threshold: 61 }))).toEqual({
      threshold: 'ERROR_STATUS_THRESHOLD_INVALID',
    });
    expect(messages(schema.safeParse({ ...values, threshold: 2.5 }))).toEqual({
      threshold: 'ERROR_STATUS_THRESHOLD_INVALID',
    });
    expect(messages(schema.safeParse({ ...values, color: '' }))).toEqual({ color: 'ERROR_STATUS_COLOR_REQUIRED' });
    expect(messages(schema.safeParse({ ...values, color: 'red' }))).toEqual({ color: 'ERROR_STATUS_COLOR_INVALID' });
  });

  it('sends an empty threshold as 0 and no icon as null', () => {
    const schema = statusFormSchema({ creating: false, needsCompany: false });
    const parsed = schema.parse({ ...emptyStatusForm('t'), name: 'Away', departmentId: '4', threshold: '' });
    expect(toSaveStatus(parsed)).toEqual({
      name: 'Away',
      departmentId: 4,
      threshold: 0,
      color: '#000000',
      icon: null,
      fileName: null,
      trackIdle: false,
    });
  });
});
