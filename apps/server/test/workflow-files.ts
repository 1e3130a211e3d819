import type { Workflow } from '@opsdeck/contract/workflows';
import { writeRax } from '@opsdeck/rax/write';
import type { TestApp } from './app';

/** A valid `.rax` whose steps run the given activities, 30 s each. */
export const raxFile = (name = 'Invoice intake', steps = ['open-browser', 'read-excel-range'], resources = {}) =>
  writeRax(
    {
      name,
      description: `${name} steps`,
      steps: steps.map((activity) => ({ activity, name: activity, expectedSeconds: 30 })),
    },
    resources,
  );

/** The multipart body of a workflow upload, as the console sends it. */
export function workflowForm(fields: Record<string, string>, file?: { bytes: Uint8Array; name: string }) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  if (file) data.set('file', new Blob([Buffer.from(file.bytes)]), file.name);
  return data;
}

/** `POST /api/workflow/create` of a `.rax` into `directory`. */
export async function uploadWorkflow(
  t: TestApp,
  token: string,
  directory: string,
  fileName: string,
  bytes?: Uint8Array,
  options: { name?: string; tenantId?: string } = {},
) {
  return t.call<Workflow>('/api/workflow/create', {
    token,
    multipart: workflowForm(
      { name: options.name ?? fileName.replace(/\.rax$/i, ''), description: 'A workflow', directory },
      { bytes: bytes ?? (await raxFile()), name: fileName },
    ),
    ...(options.tenantId ? { tenantId: options.tenantId } : {}),
  });
}
