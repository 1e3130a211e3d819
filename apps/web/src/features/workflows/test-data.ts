import type { DirectoryItem, DirectoryPage, DirectoryViewInput, WorkflowDetail } from '@opsdeck/contract/workflows';
import type { signedIn } from '../../test/builders';
import { errorBody, type RecordedCall } from '../../test/fake-api';

/** Factories with overrides for the workflows area's tests (test/builders.ts style). */
const CREATED = new Date(2026, 0, 5, 9, 30).getTime();

export function buildDirectory(name: string, parent: string, overrides: Partial<DirectoryItem> = {}): DirectoryItem {
  return {
    type: 'directory',
    name,
    fileName: name,
    parent,
    id: null,
    description: '',
    size: null,
    premium: false,
    createDate: CREATED,
    updateDate: CREATED,
    creator: 'Ada Lovelace',
    updatedBy: 'Ada Lovelace',
    protected: false,
    ...overrides,
  };
}

export function buildWorkflowItem(
  id: number,
  name: string,
  parent: string,
  overrides: Partial<DirectoryItem> = {},
): DirectoryItem {
  return {
    ...buildDirectory(name, parent),
    type: 'workflow',
    id,
    fileName: `${name}.rax`,
    description: `${name} description`,
    size: 2048,
    ...overrides,
  };
}

export function buildWorkflowDetail(overrides: Partial<WorkflowDetail> = {}): WorkflowDetail {
  const person = { id: 7, completeName: 'Ada Lovelace' };
  return {
    id: 2,
    name: 'Invoice intake',
    description: 'Reads invoices',
    directory: 'Workflows/Finance',
    file: 'Invoice intake.rax',
    originalFilename: 'invoice.rax',
    size: 2048,
    premium: true,
    createDate: CREATED,
    updateDate: CREATED,
    creator: person,
    updatedBy: person,
    tenantId: 'tenant-acme',
    steps: 3,
    activities: [
      { key: 'excel.read', name: 'Read Excel', premium: false },
      { key: 'ocr.scan', name: 'Scan document', premium: true },
    ],
    versions: [
      {
        id: 12,
        number: 2,
        fileName: 'Invoice intake.rax',
        size: 2048,
        sha256: 'b'.repeat(64),
        createDate: CREATED + 1000,
        createdBy: person,
      },
      {
        id: 11,
        number: 1,
        fileName: 'invoice.rax',
        size: 1024,
        sha256: 'a'.repeat(64),
        createDate: CREATED,
        createdBy: person,
      },
    ],
    ...overrides,
  };
}

export const FINANCE = 'Workflows/Finance';

/** A company's tree: its root, Finance (a folder and three workflows) and Finance/Invoices. */
export const COMPANY_TREE: Record<string, DirectoryItem[]> = {
  Workflows: [
    buildDirectory('Finance', 'Workflows'),
    buildDirectory('HR', 'Workflows'),
    buildWorkflowItem(1, 'Welcome', 'Workflows'),
  ],
  [FINANCE]: [
    buildDirectory('Invoices', FINANCE),
    buildWorkflowItem(2, 'Invoice intake', FINANCE, { premium: true }),
    buildWorkflowItem(3, 'Payroll', FINANCE),
    buildWorkflowItem(4, 'Reconcile', FINANCE),
  ],
  [`${FINANCE}/Invoices`]: [buildWorkflowItem(5, 'Vendor invoices', `${FINANCE}/Invoices`)],
  'Workflows/HR': [],
};

/**
 * POST /api/directory/view over a tree: a directory's items, or with a search its workflows and
 * those below it whose name contains the text; an unknown path is ERROR_DIRECTORY_NOT_EXIST.
 */
export function directoryView(tree: Record<string, DirectoryItem[]>, tenantOf: (path: string) => string | null) {
  return (call: RecordedCall) => {
    const view = call.body as DirectoryViewInput;
    const own = tree[view.parent];
    if (!own) return { status: 404, body: errorBody('ERROR_DIRECTORY_NOT_EXIST') };
    const items = view.search
      ? Object.entries(tree)
          .filter(([path]) => path === view.parent || path.startsWith(`${view.parent}/`))
          .flatMap(([, list]) => list)
          .filter(
            (item) => item.type === 'workflow' && item.name.toLowerCase().includes(String(view.search).toLowerCase()),
          )
      : own;
    const page: DirectoryPage = {
      items,
      total: items.length,
      page: Number(view.page ?? 1),
      size: 10,
      path: view.parent,
      tenantId: tenantOf(view.parent),
    };
    return { body: page };
  };
}

type Handlers = Parameters<typeof signedIn>[1];

/** The handlers of a company user's tree (tenant-acme). */
export const companyTree = (handlers: Handlers = {}): Handlers => ({
  'POST /api/directory/view': directoryView(COMPANY_TREE, () => 'tenant-acme'),
  ...handlers,
});

export const ALL_WORKFLOW_AUTHORITIES = [
  'ACCESS_WORKFLOW_TAB',
  'VIEW_WORKFLOW',
  'CREATE_WORKFLOW',
  'EDIT_WORKFLOW',
  'DELETE_WORKFLOW',
  'DOWNLOAD_WORKFLOW',
];

export const viewCalls = (calls: RecordedCall[]) =>
  calls.filter((call) => call.url === '/api/directory/view').map((call) => call.body as DirectoryViewInput);

export const workflowFile = (name = 'Invoice intake.rax', content = '<rax version="1"/>') =>
  new File([content], name, { type: 'application/octet-stream' });
