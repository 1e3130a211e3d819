import { readFile } from 'node:fs/promises';
import { EXCEPTION_CSV_COLUMNS, LOG_CSV_COLUMNS } from '@opsdeck/contract/reports';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  agentWorkflowId,
  DEMO_PASSWORD,
  demoAgentKey,
  signIn,
  signInByToken,
  startTestAgent,
  type TestAgent,
  USERS,
} from './support';

/**
 * Reports (spec sections 2, 3 and 9) on the whole stack: the agent report over the demo's 90 days
 * of history and for a company with no runs, the exceptions and execution logs pages (search, range,
 * paging, details, CSV), and a run a simulated agent finishes appearing on an open logs page.
 *
 * Northwind's history is read as it is (other tests add runs to it, so figures are compared with the
 * API's, not with constants); Cedar Health's agent makes the live run.
 */

const REPORT = '/dashboard/report/agent';
const LOGS = '/dashboard/workflow/logs';
const ERRORS = '/dashboard/workflow/errors';
const APP_KEY = { 'X-App-Key': 'opsdeck-console' };
const CEDAR = { name: 'Cedar Health Partners', head: 'aiko.tanaka@cedarhealth.test' };
/** A demo workflow of 25 s of steps: 1.25 s at the agents' speed of 20. */
const QUICK = 'Invoice approval reminder';

const LOG_DATE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/;

/** A user's API, signed in with the demo password, for the figures the pages should show. */
async function apiAs(request: APIRequestContext, email: string, password = DEMO_PASSWORD) {
  const login = await request.post('/api/login', { headers: APP_KEY, data: { username: email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const headers = { ...APP_KEY, 'X-Auth-Token': token };
  return {
    async get<T>(path: string, params: Record<string, string | number>) {
      const response = await request.get(`/api${path}`, { headers, params });
      expect(response.status(), await response.text()).toBe(200);
      return (await response.json()) as T;
    },
  };
}

/** The browser's current month and zone, as the agent report computes them. */
async function browserMonth(page: Page) {
  return page.evaluate(() => {
    const now = new Date();
    const from = new Date(now.getFullYear(), now.getMonth(), 1).getTime();
    const to = new Date(now.getFullYear(), now.getMonth() + 1, 1).getTime() - 1;
    return { from, to, tz: Intl.DateTimeFormat().resolvedOptions().timeZone };
  });
}

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"';
        at += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at += 1;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  // A UTF-8 byte order mark, if the server writes one for spreadsheets, is not part of the first name.
  if (records[0]?.[0]) records[0][0] = records[0][0].replace(/^\uFEFF/, '');
  return records;
}

const table = (page: Page, name: string) => page.getByRole('table', { name });
/** The rows of data (not the one row saying the table loads or is empty). */
const dataRows = (list: Locator) => list.locator('tbody tr').filter({ has: list.page().locator('td:nth-child(2)') });
const summary = (page: Page) => page.getByText(/^Showing \d+–\d+ of \d+$/);
const totalOf = async (page: Page) => Number((await summary(page).textContent())?.match(/of (\d+)$/)?.[1]);
const settledTable = async (list: Locator) => expect(list).toHaveAttribute('aria-busy', 'false');

/**
 * The table's total once it is the server's for the same filter (a new filter's answer replaces the
 * previous rows a moment after the URL changes), read from the API of `api`.
 */
async function settledTotal(
  page: Page,
  api: Awaited<ReturnType<typeof apiAs>>,
  path: string,
  params: Record<string, string | number>,
) {
  const month = await browserMonth(page);
  const query = { from: month.from, to: month.to, page: 1, tz: month.tz, ...params };
  const server = async () => (await api.get<{ total: number }>(path, query)).total;
  await expect.poll(async () => (await totalOf(page)) === (await server())).toBe(true);
  return totalOf(page);
}

async function chooseRange(page: Page, label: string) {
  await page.getByRole('combobox', { name: 'Date range' }).click();
  await page.getByRole('option', { name: label }).click();
}

/**
 * The demo's history runs every day (the nightly health check), but in the first hours of a month
 * the month may hold no executed time yet: then a Northwind agent runs a quick workflow first, so
 * the chart always has a bar to read.
 */
async function ensureExecutedTimeThisMonth(page: Page, request: APIRequestContext, baseURL: string) {
  const month = await browserMonth(page);
  const api = await apiAs(request, USERS.companyHead.email);
  const executed = async () =>
    (
      await api.get<{ executionTime: number }[]>('/report/agent/total-hours', {
        from: month.from,
        to: month.to,
        tz: month.tz,
      })
    ).some((day) => day.executionTime > 0);
  if (await executed()) return;
  const agent = await startTestAgent(baseURL, await demoAgentKey(baseURL, USERS.companyHead.company));
  try {
    agent.execute(agentWorkflowId(agent, QUICK));
    await expect.poll(executed, { timeout: 20_000 }).toBe(true);
  } finally {
    await agent.stop();
  }
  await page.reload();
}

test.describe('reports', () => {
  test.describe.configure({ timeout: 90_000 });
  test.use({ viewport: { width: 1440, height: 1000 } });

  test("the agent report over the demo's history: tiles, chart by pointer and keyboard, its table, panels and View All", async ({
    page,
    request,
    server,
  }) => {
    await signInByToken(page, USERS.companyHead.email);
    await page.goto(REPORT);
    await ensureExecutedTimeThisMonth(page, request, server.url);
    await expect(page.getByRole('heading', { level: 1, name: 'Agent Report' })).toBeVisible();
    const month = await browserMonth(page);
    const api = await apiAs(request, USERS.companyHead.email);
    const range = { from: month.from, to: month.to };

    // Tiles: the month's metrics (other tests may add runs meanwhile: read the API after the page).
    const completed = page.getByTestId('tile-completed-value');
    await expect(completed).toHaveText(/^\d+$/);
    const metrics = await api.get<{ completedWorkflowCount: number; failedWorkflowCount: number }>(
      '/report/agent/metrics',
      range,
    );
    expect(Number(await completed.textContent())).toBeLessThanOrEqual(metrics.completedWorkflowCount);
    expect(Number(await page.getByTestId('tile-failed-value').textContent())).toBeLessThanOrEqual(
      metrics.failedWorkflowCount,
    );
    await expect(page.getByTestId('tile-active-agents-value')).toHaveText(/^\d+$/);

    const days = await api.get<{ date: string; executionTime: number }[]>('/report/agent/total-hours', {
      ...range,
      tz: month.tz,
    });
    const busy = days.filter((day) => day.executionTime > 0);
    expect(busy.length).toBeGreaterThan(0);

    // The chart, 300 px high on a dark background, read by pointing at a bar and with the arrow keys.
    const chart = page.getByRole('application', { name: 'Executed minutes per day' });
    await expect(chart).toBeVisible();
    const box = (await page.locator('.recharts-responsive-container').boundingBox())!;
    expect(Math.round(box.height)).toBe(300);
    const background = await page
      .getByTestId('chart-area')
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).toBe('rgb(36, 36, 36)');
    const readout = page.getByTestId('chart-readout');
    await expect(readout).toHaveAttribute('aria-live', 'polite');

    // Focused, the chart shows its first day; the arrow keys move from day to day, read out below it.
    await chart.focus();
    const first = days[0]!;
    const firstDay = first.date.replaceAll('-', '/');
    const readingOf = (day: { date: string; executionTime: number }) =>
      `${day.date.replaceAll('-', '/')}: ${(day.executionTime / 60_000).toFixed(1)} minutes`;
    await expect(readout).toHaveText(readingOf(first));
    await page.keyboard.press('ArrowRight');
    await expect(readout).toHaveText(readingOf(days[1]!));
    await page.keyboard.press('ArrowLeft');
    await expect(readout).toHaveText(readingOf(first));
    await chart.blur();

    // Pointing at a bar shows its tooltip, in minutes to one decimal.
    await page.locator('.recharts-bar-rectangle .recharts-rectangle').last().hover();
    await expect(page.locator('.recharts-tooltip-wrapper')).toContainText(/\d+\.\d min/);
    await expect(readout).toHaveText(/^\d{4}\/\d{2}\/\d{2}: \d+\.\d minutes$/);
    await page.mouse.move(0, 0);

    // The same figures as a table.
    await page.getByText('Table', { exact: true }).click();
    const dayTable = page.getByRole('table', { name: /^Executed minutes per day of / });
    await expect(dataRows(dayTable)).toHaveCount(days.length);
    await expect(dataRows(dayTable).first().locator('td')).toHaveText([
      firstDay,
      (first.executionTime / 60_000).toFixed(1),
    ]);
    await page.getByText('Chart', { exact: true }).click();
    await expect(chart).toBeVisible();

    // Most used: the API's order; workflow errors: five at most.
    const useCounts = await api.get<{ workflowName: string; useCount: number }[]>('/report/agent/use-counts', {
      ...range,
      limit: 10,
    });
    const mostUsed = table(page, 'Most Used Workflows');
    await expect(dataRows(mostUsed).first().locator('td').first()).toHaveText(useCounts[0]!.workflowName);
    await expect(dataRows(mostUsed)).toHaveCount(useCounts.length);
    const errors = page.getByTestId('panel-errors');
    await expect(errors.getByRole('table', { name: 'Latest workflow errors' }).locator('tbody tr')).toHaveCount(5);
    await expect(page.getByTestId('total-time')).toHaveText(/^(\d+ h \d+ min|\d+\.\d min)$/);
    await expect(page.getByTestId('panel-events')).toBeVisible();

    // An error's details, from the panel.
    await errors.locator('tbody tr').first().click();
    const details = page.getByRole('dialog');
    await expect(details.getByTestId('execution-details')).toContainText('Host name');
    await page.keyboard.press('Escape');
    await expect(details).toHaveCount(0);

    // View All: the logs of this month.
    await page.getByRole('link', { name: 'View All Most Used Workflows' }).click();
    await expect(page).toHaveURL(/\/dashboard\/workflow\/logs\?range=thisMonth$/);
    await expect(page.getByRole('combobox', { name: 'Date range' })).toHaveValue('This Month');
    await settledTable(table(page, 'Execution Logs'));
    await expect(summary(page)).toBeVisible();
  });

  test('the agent report of a company with no runs says so in every panel', async ({ page, request }) => {
    const login = await request.post('/api/login', {
      headers: APP_KEY,
      data: { username: USERS.admin.email, password: DEMO_PASSWORD },
    });
    const { token } = (await login.json()) as { token: string };
    const email = `head.${Date.now()}@quiet.test`;
    const password = 'e2e password 1';
    const created = await request.post('/api/company', {
      headers: { ...APP_KEY, 'X-Auth-Token': token },
      data: {
        name: `Quiet Holdings ${Date.now()}`,
        industryType: 'retail',
        head: {
          firstName: 'Quinn',
          lastName: 'Quiet',
          emailAddress: email,
          credential: { username: email, newPassword: password, confirmPassword: password },
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    await signInByToken(page, email, password);
    await page.goto(REPORT);
    await expect(page.getByRole('heading', { level: 1, name: 'Agent Report' })).toBeVisible();
    for (const tile of ['completed', 'failed', 'scheduled', 'active-agents'])
      await expect(page.getByTestId(`tile-${tile}-value`)).toHaveText('0');
    await expect(
      page.getByText('No executed time this month yet — the chart fills in as agents finish workflows.'),
    ).toBeVisible();
    await expect(
      page
        .getByTestId('panel-most-used')
        .getByText('No runs this month yet — agents report here as they finish workflows.'),
    ).toBeVisible();
    await expect(
      page
        .getByTestId('panel-total-time')
        .getByText('No executed time this month yet — it adds up as agents finish workflows.'),
    ).toBeVisible();
    await expect(
      page.getByTestId('panel-errors').getByText('No workflow errors this month — faulted runs show here.'),
    ).toBeVisible();
    await expect(page.getByTestId('panel-events').getByText('There are no active agents at the moment.')).toBeVisible();
    // No recharts for an empty month.
    await expect(page.getByRole('application')).toHaveCount(0);

    await page.goto(`${LOGS}?range=all`);
    await expect(table(page, 'Execution Logs').getByText('No runs in this range.')).toBeVisible();
  });

  test('execution logs: search, range and page in the URL, the formats, details on click and Enter, and the CSV of the filter', async ({
    page,
    request,
  }) => {
    await signIn(page, USERS.companyHead.email);
    const api = await apiAs(request, USERS.companyHead.email);
    await page.goto(LOGS);
    await expect(page.getByRole('heading', { level: 1, name: 'Execution Logs' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Date range' })).toHaveValue('Today');
    const logs = table(page, 'Execution Logs');
    await settledTable(logs);

    await chooseRange(page, 'This Month');
    await expect(page).toHaveURL(/\?range=thisMonth$/);
    const monthTotal = await settledTotal(page, api, '/report/agent/logs', {});
    await settledTable(logs);
    expect(monthTotal).toBeGreaterThan(10);
    await expect(dataRows(logs)).toHaveCount(10);

    // The formats of spec sections 2 and 9, in each row.
    const headers = await logs.getByRole('columnheader').allTextContents();
    expect(headers).toEqual([
      'Execution start',
      'Execution end',
      'Runtime',
      'Workflow',
      'Status',
      'Message',
      'Activity',
      'Executed by',
      'E-mail',
      'MAC address',
      'Company',
      'Department',
    ]);
    const cells = await dataRows(logs).evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent ?? '')),
    );
    for (const row of cells) {
      expect(row[0]).toMatch(LOG_DATE);
      expect(row[1]).toMatch(LOG_DATE);
      expect(row[2]).toMatch(/^\d+:\d{2}:\d{2}$/);
      expect(row[4]).toMatch(/^(SUCCESS|FAULTED|UNKNOWN)$/);
      expect(row[10]).toBe('Northwind Logistics');
    }
    // Newest first.
    expect([...cells.map((row) => row[0])].sort().reverse()).toEqual(cells.map((row) => row[0]));

    await page.getByRole('button', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    await settledTable(logs);

    await page.getByRole('search').getByLabel('Search').fill('Tracking updates');
    await expect(page).toHaveURL(/[?&]q=Tracking(\+|%20)updates(&|$)/);
    await expect(page).not.toHaveURL(/page=/);
    // The rows shown change once the search's answer is in: every one a tracking update.
    const filtered = await settledTotal(page, api, '/report/agent/logs', { search: 'Tracking updates' });
    await settledTable(logs);
    expect(new Set(await dataRows(logs).locator('td:nth-child(4)').allTextContents())).toEqual(
      new Set(['Tracking updates']),
    );
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(monthTotal);

    // A reload shows the same list.
    await page.reload();
    await expect(page.getByRole('search').getByLabel('Search')).toHaveValue('Tracking updates');
    await expect(page.getByRole('combobox', { name: 'Date range' })).toHaveValue('This Month');

    // Details: on click, and on Enter.
    const first = dataRows(logs).first();
    await first.locator('td').nth(3).click();
    const dialog = page.getByRole('dialog', { name: 'Tracking updates run' });
    await expect(dialog).toBeVisible();
    for (const text of [
      'Message',
      'Activity',
      'Version',
      'MAC address:',
      'Host name:',
      'Runtime:',
      'Northwind Logistics',
    ])
      await expect(dialog).toContainText(text);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await first.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    // The CSV: every row of the filter (all pages), the contract's columns.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const records = parseCsv(await readFile((await download.path())!, 'utf8'));
    expect(records[0]).toEqual([...LOG_CSV_COLUMNS]);
    const rows = records.slice(1);
    // Runs may have been added to this month since the count: never fewer, all of them tracking updates.
    expect(rows.length).toBeGreaterThanOrEqual(filtered);
    const workflow = LOG_CSV_COLUMNS.indexOf('workflowName');
    const company = LOG_CSV_COLUMNS.indexOf('companyName');
    for (const row of rows) {
      expect(row).toHaveLength(LOG_CSV_COLUMNS.length);
      expect(row[workflow]).toBe('Tracking updates');
      expect(row[company]).toBe('Northwind Logistics');
    }
  });

  test('error logs: this month, a search, a details modal and the CSV of the filter', async ({ page, request }) => {
    await signIn(page, USERS.companyHead.email);
    const api = await apiAs(request, USERS.companyHead.email);
    await page.goto(`${ERRORS}?range=thisMonth`);
    await expect(page.getByRole('heading', { level: 1, name: 'Error Logs' })).toBeVisible();
    const errors = table(page, 'Error Logs');
    await settledTotal(page, api, '/report/agent/exceptions', {});
    await settledTable(errors);
    expect(await errors.getByRole('columnheader').allTextContents()).toEqual([
      'Execution start',
      'Workflow',
      'Message',
      'Activity',
      'Executed by',
      'E-mail',
      'MAC address',
    ]);
    const total = await totalOf(page);
    expect(total).toBeGreaterThan(0);

    // Search by a message's words: every row matches it somewhere the search looks.
    const message = (await dataRows(errors).first().locator('td').nth(2).textContent()) ?? '';
    const words = message
      .replace(/\.\.\..*$/, '')
      .split(' ')
      .slice(0, 3)
      .join(' ');
    await page.getByRole('search').getByLabel('Search').fill(words);
    await expect(page).toHaveURL(/[?&]q=/);
    const filtered = await settledTotal(page, api, '/report/agent/exceptions', { search: words });
    await settledTable(errors);
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThanOrEqual(total);

    await dataRows(errors).first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('execution-details')).toContainText(words);
    await page.keyboard.press('Escape');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const records = parseCsv(await readFile((await (await downloading).path())!, 'utf8'));
    expect(records[0]).toEqual([...EXCEPTION_CSV_COLUMNS]);
    expect(records.length - 1).toBeGreaterThanOrEqual(filtered);
    const text = EXCEPTION_CSV_COLUMNS.indexOf('errorMessage');
    const lower = words.toLowerCase();
    for (const row of records.slice(1)) expect(row.join(' ').toLowerCase()).toContain(lower);
    expect(records.slice(1).some((row) => row[text]?.toLowerCase().includes(lower))).toBe(true);
  });

  test.describe('a run finished while the page is open', () => {
    let agent: TestAgent | undefined;
    test.afterEach(async () => {
      await agent?.stop();
      agent = undefined;
    });

    test('appears on the execution logs page and in the agent report without a reload', async ({ page, server }) => {
      const baseURL = server.url;
      agent = await startTestAgent(baseURL, await demoAgentKey(baseURL, CEDAR.name));
      await signInByToken(page, CEDAR.head);
      await page.goto(`${LOGS}?q=${encodeURIComponent(QUICK)}`);
      const logs = table(page, 'Execution Logs');
      await settledTable(logs);
      await expect(page.getByTestId('report-refresh')).toHaveText('Updates live', { timeout: 15_000 });
      const before = (await dataRows(logs).count()) === 0 ? 0 : await totalOf(page);

      // The agent report, open in another tab of the same session.
      const report = await page.context().newPage();
      await report.goto(REPORT);
      const completed = report.getByTestId('tile-completed-value');
      await expect(completed).toHaveText(/^\d+$/);
      await expect(report.getByTestId('report-refresh')).toHaveText('Updates live', { timeout: 15_000 });
      const completedBefore = Number(await completed.textContent());

      agent.execute(agentWorkflowId(agent, QUICK));
      await expect(summary(page)).toHaveText(new RegExp(`of ${before + 1}$`), { timeout: 20_000 });
      const newest = dataRows(logs).first().locator('td');
      await expect(newest.nth(3)).toHaveText(QUICK);
      await expect(newest.nth(4)).toHaveText('SUCCESS');
      await expect(completed).toHaveText(String(completedBefore + 1), { timeout: 20_000 });
      await report.close();
    });
  });
});
