import { readRax } from '@opsdeck/rax/read';
import { writeRax } from '@opsdeck/rax/write';
import type { Executor } from '../db/client';
import { databaseBlobStore } from '../modules/workflows/blob-store';
import { storeVersion } from '../modules/workflows/files';
import * as q from '../modules/workflows/queries';
import { oneTenant } from '../platform/tenancy';
import { DEMO_HISTORY_DAYS, type DemoTenant } from './demo-tenant';

export type Step = [activity: string, name: string, expectedSeconds: number];
type WorkflowPlan = { name: string; description: string; steps: Step[]; resources?: Record<string, string> };
type VersionPlan = WorkflowPlan & { revisions?: Step[][] };
type FolderPlan = { name: string; workflows?: VersionPlan[]; folders?: FolderPlan[] };

/** Each demo company's tree: real `.rax` files built from the activity catalogue, some revised. */
const TREE: FolderPlan[] = [
  {
    name: 'Finance',
    folders: [
      {
        name: 'Invoices',
        workflows: [
          {
            name: 'Invoice intake',
            description: 'Reads supplier invoices from the shared mailbox and extracts their totals.',
            steps: [
              ['get-imap-mail', 'Fetch new invoice mails', 20],
              ['read-pdf-text', 'Read the attached invoice', 15],
              ['write-excel-range', 'Append to the intake sheet', 10],
            ],
            resources: { 'templates/intake.csv': 'supplier,invoice,total\n' },
            revisions: [
              [
                ['get-imap-mail', 'Fetch new invoice mails', 20],
                ['ocr-document', 'Read scanned invoices', 40],
                ['read-pdf-text', 'Read the attached invoice', 15],
                ['write-excel-range', 'Append to the intake sheet', 10],
              ],
            ],
          },
          {
            name: 'Invoice approval reminder',
            description: 'Mails approvers about invoices waiting more than three days.',
            steps: [
              ['read-excel-range', 'Read the open invoices', 10],
              ['send-outlook-mail', 'Remind each approver', 15],
            ],
          },
          {
            name: 'Post invoices to SAP',
            description: 'Books approved invoices in SAP with transaction FB60.',
            steps: [
              ['read-excel-range', 'Read approved invoices', 10],
              ['sap-logon', 'Log on to SAP', 20],
              ['sap-call-transaction', 'Run FB60 per invoice', 60],
            ],
          },
        ],
      },
      {
        name: 'Payroll',
        workflows: [
          {
            name: 'Timesheet consolidation',
            description: 'Collects timesheets into one workbook for payroll.',
            steps: [
              ['get-imap-mail', 'Fetch timesheets', 20],
              ['read-excel-range', 'Read each timesheet', 15],
              ['write-excel-range', 'Write the payroll workbook', 15],
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'HR',
    folders: [
      {
        name: 'Onboarding',
        workflows: [
          {
            name: 'New hire accounts',
            description: 'Creates the accounts a new hire needs on their first day.',
            steps: [
              ['read-excel-range', 'Read the hire list', 10],
              ['http-request', 'Create the directory account', 10],
              ['send-outlook-mail', 'Send the welcome mail', 10],
            ],
            revisions: [
              [
                ['read-excel-range', 'Read the hire list', 10],
                ['http-request', 'Create the directory account', 10],
                ['http-request', 'Order a laptop', 10],
                ['send-outlook-mail', 'Send the welcome mail', 10],
              ],
              [
                ['read-excel-range', 'Read the hire list', 10],
                ['http-request', 'Create the directory account', 10],
                ['http-request', 'Order a laptop', 10],
                ['send-outlook-mail', 'Send the welcome mail', 10],
                ['send-outlook-mail', "Tell the manager it's done", 10],
              ],
            ],
          },
          {
            name: 'Contract archiving',
            description: 'Files signed contracts into the document store.',
            steps: [
              ['get-imap-mail', 'Fetch signed contracts', 20],
              ['ocr-document', 'Read the signature page', 40],
              ['http-request', 'Upload to the archive', 15],
            ],
          },
        ],
      },
      {
        name: 'Leave',
        workflows: [
          {
            name: 'Leave balance report',
            description: 'Mails each team lead the leave balances of their team.',
            steps: [
              ['execute-sql-query', 'Query the balances', 15],
              ['write-excel-range', 'Write the report', 10],
              ['send-outlook-mail', 'Mail the team leads', 10],
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'Operations',
    folders: [
      {
        name: 'Shipping',
        workflows: [
          {
            name: 'Carrier booking',
            description: 'Books pickups on the carrier portal for the day’s orders.',
            steps: [
              ['read-excel-range', "Read today's orders", 10],
              ['open-browser', 'Open the carrier portal', 15],
              ['type-into', 'Fill the booking form', 20],
              ['click-element', 'Confirm the booking', 5],
            ],
            revisions: [
              [
                ['read-excel-range', "Read today's orders", 10],
                ['open-browser', 'Open the carrier portal', 15],
                ['type-into', 'Fill the booking form', 20],
                ['click-element', 'Confirm the booking', 5],
                ['delay', 'Wait for the label', 5],
              ],
            ],
          },
          {
            name: 'Tracking updates',
            description: 'Reads carrier tracking and mails customers whose parcels are late.',
            steps: [
              ['http-request', 'Fetch tracking events', 10],
              ['send-outlook-mail', 'Mail late parcels', 10],
            ],
          },
        ],
      },
      {
        name: 'Inventory',
        workflows: [
          {
            name: 'Stock reconciliation',
            description: 'Compares warehouse counts with SAP stock and lists the differences.',
            steps: [
              ['read-excel-range', 'Read the counts', 10],
              ['sap-logon', 'Log on to SAP', 20],
              ['sap-call-transaction', 'Read stock with MB52', 45],
              ['write-excel-range', 'Write the differences', 10],
            ],
          },
          {
            name: 'Reorder alert',
            description: 'Warns purchasing about items below their reorder point.',
            steps: [
              ['execute-sql-query', 'Find items to reorder', 15],
              ['send-outlook-mail', 'Warn purchasing', 10],
            ],
          },
        ],
      },
    ],
  },
  {
    name: 'IT',
    workflows: [
      {
        name: 'Nightly health check',
        description: 'Calls each internal service and mails IT what did not answer.',
        steps: [
          ['http-request', 'Call each service', 30],
          ['send-outlook-mail', 'Mail the failures', 10],
        ],
      },
      {
        name: 'Licence usage export',
        description: 'Exports software licence usage to a workbook every month.',
        steps: [
          ['open-browser', 'Open the admin portal', 15],
          ['click-element', 'Export the usage', 10],
          ['write-excel-range', 'Save it to the workbook', 10],
        ],
      },
    ],
  },
];

const DAY = 24 * 60 * 60 * 1000;
/** Days between a workflow's versions: the revisions fall inside the demo's history, whose runs show them. */
const REVISED_EVERY_DAYS = 35;

/** Every demo workflow's steps, version by version (first the original), by name: what the demo's history runs. */
export function demoWorkflowSteps(): Map<string, Step[][]> {
  const plans = new Map<string, Step[][]>();
  const walk = (folder: FolderPlan) => {
    for (const workflow of folder.workflows ?? [])
      plans.set(workflow.name, [workflow.steps, ...(workflow.revisions ?? [])]);
    for (const child of folder.folders ?? []) walk(child);
  };
  for (const folder of TREE) walk(folder);
  return plans;
}

async function raxOf(plan: WorkflowPlan, steps: Step[]) {
  const bytes = await writeRax(
    {
      name: plan.name,
      description: plan.description,
      steps: steps.map(([activity, name, expectedSeconds]) => ({ activity, name, expectedSeconds })),
    },
    plan.resources ?? {},
  );
  const contents = await readRax(bytes);
  return {
    fileName: `${plan.name}.rax`,
    bytes,
    activityKeys: contents.activityKeys,
    steps: contents.manifest.steps.length,
  };
}

/**
 * Seeds one demo company's workflow tree by its staff, made in the weeks before the demo's history
 * (which runs them) and revised during it.
 */
export async function seedDemoWorkflows(db: Executor, tenant: DemoTenant) {
  const people = tenant.staffIds.length > 0 ? tenant.staffIds : [null];
  let made = 0;
  const person = () => people[made % people.length] ?? null;

  const addFolder = async (parent: q.DirectoryRow, plan: FolderPlan) => {
    const at = tenant.now - (DEMO_HISTORY_DAYS + 40 - made) * DAY;
    const directory = await q.insertDirectory(db, parent, { name: plan.name, userId: person(), now: at });
    for (const workflow of plan.workflows ?? []) {
      made += 1;
      const createdAt = tenant.now - (DEMO_HISTORY_DAYS + 30 - made) * DAY;
      const versions = [workflow.steps, ...(workflow.revisions ?? [])];
      const first = await raxOf(workflow, versions[0]!);
      const row = await q.insertWorkflow(db, {
        tenantId: tenant.tenantId,
        directoryId: directory.id,
        name: workflow.name,
        description: workflow.description,
        fileName: first.fileName,
        size: first.bytes.byteLength,
        activityKeys: first.activityKeys,
        createdAt,
        createdBy: person(),
        updatedAt: createdAt,
        updatedBy: person(),
      });
      for (const [index, steps] of versions.entries()) {
        const file = index === 0 ? first : await raxOf(workflow, steps);
        const at = createdAt + index * REVISED_EVERY_DAYS * DAY;
        const by = people[(made + index) % people.length] ?? null;
        await storeVersion(db, databaseBlobStore, row, file, { userId: by, now: at });
        // The first version is what the row was made with; a later one changes it.
        if (index > 0) {
          await q.updateWorkflow(db, oneTenant(row.tenantId), row.id, {
            size: file.bytes.byteLength,
            activityKeys: file.activityKeys,
            updatedAt: at,
            updatedBy: by,
          });
        }
      }
    }
    for (const child of plan.folders ?? []) await addFolder(directory, child);
  };

  const root = await q.ensureTreeRoot(db, tenant.tenantId);
  for (const folder of TREE) await addFolder(root, folder);
}
