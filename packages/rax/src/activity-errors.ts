/**
 * Error messages that fit the activity a simulated run fails at, so that the exceptions and
 * execution logs a demo produces read like a real robot's: the simulated agent's runs
 * (apps/agent) and the demo's history (apps/server/src/seed/demo-history.ts) draw from here.
 * Keyed by the demo catalogue's activity keys (apps/server/src/seed/demo-activities.ts); any
 * other key is matched by the words in it, then falls back to DEFAULT_ERRORS.
 */
export type ActivityFamily = 'web' | 'excel' | 'mail' | 'sap' | 'ocr' | 'pdf' | 'http' | 'sql' | 'delay';

export const ACTIVITY_ERRORS: Record<string, readonly string[]> = {
  'open-browser': [
    'Browser did not start: chrome.exe exited with code 1',
    'Navigation to the start page timed out after 60 s',
  ],
  'click-element': [
    'Element #submit not found after 30 s',
    'Element button.approve is not clickable: another element would receive the click',
  ],
  'type-into': ['Element input[name="invoiceNumber"] not found after 30 s', 'Element #username is read-only'],
  'read-excel-range': [
    'The file is locked by another user',
    'Sheet "Invoices" does not exist in the workbook',
    'Range A2:F500 is empty',
  ],
  'write-excel-range': [
    'The file is locked by another user',
    'Access to the path \\\\fileserver\\finance\\report.xlsx is denied',
  ],
  'send-outlook-mail': [
    'Outlook is not responding (RPC_E_CALL_REJECTED)',
    'Recipient address rejected: 550 5.1.1 user unknown',
  ],
  'get-imap-mail': ['IMAP login failed: authentication failed', 'Connection to the IMAP server timed out after 30 s'],
  'sap-logon': ['SAP logon failed: the user is locked', 'Session timed out'],
  'sap-call-transaction': ['Session timed out', 'Transaction VA01 is locked by user BATCH01'],
  'ocr-document': ['Confidence 0.41 below the threshold 0.80', 'No text found on page 1'],
  'read-pdf-text': ['The PDF is password-protected', 'The file is not a valid PDF (no %PDF header)'],
  'http-request': ['HTTP 503 Service Unavailable', 'The request timed out after 30 s'],
  'execute-sql-query': [
    'Deadlock detected: the transaction was chosen as the victim',
    'Login timeout expired connecting to the SQL server',
  ],
  delay: ['The wait was interrupted by the operating system'],
};

const FAMILY_ERRORS: Record<ActivityFamily, readonly string[]> = {
  web: ['Element #submit not found after 30 s', 'The page did not finish loading within 60 s'],
  excel: ['The file is locked by another user', 'The workbook is corrupt and cannot be opened'],
  mail: ['The mail server refused the connection', 'Recipient address rejected: 550 5.1.1 user unknown'],
  sap: ['Session timed out', 'SAP GUI scripting is disabled on the server'],
  ocr: ['Confidence 0.41 below the threshold 0.80'],
  pdf: ['The PDF is password-protected'],
  http: ['HTTP 503 Service Unavailable', 'The request timed out after 30 s'],
  sql: ['Deadlock detected: the transaction was chosen as the victim'],
  delay: ['The wait was interrupted by the operating system'],
};

export const DEFAULT_ERRORS: readonly string[] = [
  'The activity timed out',
  'Object reference not set to an instance of an object',
];

/** Words in an activity key (or category) and the family they point to, the first match wins. */
const FAMILY_WORDS: [RegExp, ActivityFamily][] = [
  [/sap/i, 'sap'],
  [/ocr/i, 'ocr'],
  [/pdf/i, 'pdf'],
  [/excel|sheet|workbook|csv/i, 'excel'],
  [/mail|outlook|imap|smtp/i, 'mail'],
  [/sql|database|query/i, 'sql'],
  [/http|rest|api|integration/i, 'http'],
  [/browser|click|type|element|web|page/i, 'web'],
  [/delay|wait/i, 'delay'],
];

export function familyOf(activity: string): ActivityFamily | null {
  return FAMILY_WORDS.find(([words]) => words.test(activity))?.[1] ?? null;
}

/** The messages a step of this activity may fail with: its own, its family's, or the defaults. */
export function errorsFor(activity: string): readonly string[] {
  const own = ACTIVITY_ERRORS[activity];
  if (own) return own;
  const family = familyOf(activity);
  return family ? FAMILY_ERRORS[family] : DEFAULT_ERRORS;
}

/** One fitting message, chosen with `random` (a number in [0, 1)). */
export function errorMessageFor(activity: string, random: () => number): string {
  const messages = errorsFor(activity);
  return messages[Math.min(messages.length - 1, Math.floor(random() * messages.length))]!;
}
