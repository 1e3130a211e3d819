import type { Executor } from '../db/client';
import { activities } from '../db/schema';

/**
 * The demo's activity catalogue: what an RPA suite's designer offers (issue 8). OCR Document is
 * partial: only part of it is premium. The premium ones are marked when the licence types land.
 */
export const DEMO_ACTIVITIES: { name: string; key: string; category: string; partial?: boolean }[] = [
  { name: 'Open Browser', key: 'open-browser', category: 'Web' },
  { name: 'Click Element', key: 'click-element', category: 'Web' },
  { name: 'Type Into', key: 'type-into', category: 'Web' },
  { name: 'Read Excel Range', key: 'read-excel-range', category: 'Excel' },
  { name: 'Write Excel Range', key: 'write-excel-range', category: 'Excel' },
  { name: 'Send Outlook Mail', key: 'send-outlook-mail', category: 'Mail' },
  { name: 'Get IMAP Mail', key: 'get-imap-mail', category: 'Mail' },
  { name: 'SAP Logon', key: 'sap-logon', category: 'SAP' },
  { name: 'SAP Call Transaction', key: 'sap-call-transaction', category: 'SAP' },
  { name: 'OCR Document', key: 'ocr-document', category: 'Documents', partial: true },
  { name: 'Read PDF Text', key: 'read-pdf-text', category: 'Documents' },
  { name: 'HTTP Request', key: 'http-request', category: 'Integration' },
  { name: 'Execute SQL Query', key: 'execute-sql-query', category: 'Integration' },
  { name: 'Delay', key: 'delay', category: '' },
];

export async function seedDemoActivities(db: Executor, now: number) {
  // A few days apart, so that the table's create dates differ.
  await db.insert(activities).values(
    DEMO_ACTIVITIES.map((activity, index) => ({
      ...activity,
      partial: activity.partial ?? false,
      createdAt: now - (DEMO_ACTIVITIES.length - index) * 3 * 86_400_000,
    })),
  );
}
