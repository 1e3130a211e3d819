import { writeRax } from '@opsdeck/rax/write';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  type AgentKey,
  agentWorkflowId,
  DEMO_PASSWORD,
  demoAgentKey,
  generatedAgentKey,
  signInByToken,
  startTestAgent,
  type TestAgent,
} from './support';

/**
 * Workflow events (spec sections 2, 4 and 8) on the whole stack: simulated agents (apps/agent, real
 * clients of the live channel, run in this process) connect with demo licence keys, and the
 * company head watches and commands them from the Events page: cards appear and go, workflows are
 * executed, terminated and unqueued through the confirmations, the connection is lost and found
 * again when the server restarts, and another company's head sees none of it.
 *
 * The demo's Harbor Mutual is the company under test (no other browser test uses its agents or
 * workflows); Cedar Health is the other tenant.
 */

const EVENTS = '/dashboard/workflow/events';
const HARBOR = { name: 'Harbor Mutual Insurance', head: 'david.okafor@harbormutual.test' };
const CEDAR = { name: 'Cedar Health Partners', head: 'aiko.tanaka@cedarhealth.test' };
/** Uploaded once into Harbor's tree: an hour of steps, three minutes at the agents' speed of 20. */
const LONG = 'Audit trail rebuild';
/** A demo workflow of 25 s of steps: 1.25 s at speed 20. */
const QUICK = 'Invoice approval reminder';
const SPEED = 20;

const NO_AGENTS = 'There are no active agents at the moment.';
const NO_EVENTS = 'No active events at the moment.';
const CONNECTION_FAILURE = 'Could not connect to the Server. Please try again later.';

const liveStatus = (page: Page) => page.getByTestId('live-status');
const cards = (page: Page) => page.getByTestId('agent-card');
const card = (page: Page, mac: string) => page.locator(`[data-testid="agent-card"][data-mac="${mac}"]`);
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const activeTab = (modal: Locator) => modal.getByRole('tab', { name: /Active/ });
const workflowTable = (modal: Locator) => modal.getByRole('table', { name: 'Workflow List' });
const activeTable = (modal: Locator) => modal.getByRole('table', { name: 'Active' });
const cardName = (key: AgentKey) => key.fullName ?? 'Agent User';

async function openEvents(page: Page) {
  await page.goto(EVENTS);
  await expect(page.getByRole('heading', { level: 1, name: 'Workflow Events' })).toBeVisible();
  await expect(liveStatus(page)).toHaveText('Live', { timeout: 15_000 });
  await expect(liveStatus(page)).toHaveAttribute('data-status', 'connected');
}

async function viewAll(page: Page, key: AgentKey) {
  await card(page, key.macAddress).getByRole('button', { name: 'View all' }).click();
  const modal = page.getByRole('dialog', { name: cardName(key) });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText(key.macAddress);
  return modal;
}

/** Workflow List → Execute on `workflow`'s row → confirm; resolves when the confirmation has closed. */
async function executeFromList(page: Page, modal: Locator, workflow: string) {
  await modal.getByRole('tab', { name: 'Workflow List' }).click();
  const row = workflowTable(modal).getByRole('row').filter({ hasText: workflow });
  await row.getByRole('button', { name: 'Execute' }).click();
  const confirm = page.getByRole('dialog', { name: 'Execute workflow' });
  await expect(confirm).toContainText(`Queue ${workflow} on`);
  await confirm.getByRole('button', { name: 'Execute' }).click();
  await expect(confirm).toBeHidden();
}

/** The cells of the Active table's rows, in order. */
async function activeRows(modal: Locator) {
  return activeTable(modal)
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent?.trim() ?? '')),
    );
}

/** 'YYYY/MM/DD hh:mm A' (the console's date-time format) of an epoch, in this machine's time zone as the browser's. */
function consoleDateTime(epoch: number) {
  const date = new Date(epoch);
  const pad = (value: number) => String(value).padStart(2, '0');
  const hours = date.getHours() % 12 || 12;
  return `${date.getFullYear()}/${pad(date.getMonth() + 1)}/${pad(date.getDate())} ${pad(hours)}:${pad(date.getMinutes())} ${date.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** Signs in on the API as `email` and uploads the long workflow into the company's IT folder, once. */
async function ensureLongWorkflow(request: APIRequestContext, email: string) {
  const headers = { 'X-App-Key': 'opsdeck-console' };
  const login = await request.post('/api/login', { headers, data: { username: email, password: DEMO_PASSWORD } });
  expect(login.status()).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const bytes = await writeRax({
    name: LONG,
    description: 'A run long enough to watch, terminate and unqueue (browser tests).',
    steps: [
      { activity: 'read-excel-range', name: 'Read every audit entry', expectedSeconds: 3_000 },
      { activity: 'write-excel-range', name: 'Write the rebuilt trail', expectedSeconds: 600 },
    ],
  });
  const response = await request.post('/api/workflow/create', {
    headers: { ...headers, 'X-Auth-Token': token },
    multipart: {
      name: LONG,
      description: 'A long run for the Events browser tests',
      directory: 'Workflows/IT',
      file: { name: `${LONG}.rax`, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) },
    },
  });
  // 409: an earlier repetition of this file in the same run uploaded it already.
  expect([201, 409], await response.text()).toContain(response.status());
}

test.describe('workflow events with simulated agents', () => {
  let agents: TestAgent[] = [];
  let baseURL: string;
  // A loaded machine makes each step of a browser a few hundred milliseconds.
  test.describe.configure({ timeout: 60_000 });

  test.beforeAll(async ({ request, server }) => {
    baseURL = server.url;
    await ensureLongWorkflow(request, HARBOR.head);
  });

  test.afterEach(async () => {
    await Promise.all(agents.map((agent) => agent.stop()));
    agents = [];
  });

  async function agent(key: AgentKey, speed = SPEED) {
    const started = await startTestAgent(baseURL, key, { speed });
    agents.push(started);
    return started;
  }

  test('shows Live, one card per connected agent with its name and MAC address, and the empty text', async ({
    page,
  }) => {
    const named = await demoAgentKey(baseURL, HARBOR.name);
    const anonymous = await generatedAgentKey(baseURL, HARBOR.name);
    expect(named.fullName).toBeTruthy();

    await signInByToken(page, HARBOR.head);
    await openEvents(page);
    await expect(page.getByText(NO_AGENTS)).toBeVisible();
    await expect(cards(page)).toHaveCount(0);

    // Agents connecting while the page is open appear without a reload.
    const first = await agent(named);
    await agent(anonymous);
    await expect(cards(page)).toHaveCount(2);
    await expect(page.getByText(NO_AGENTS)).toBeHidden();
    for (const key of [named, anonymous]) {
      const shown = card(page, key.macAddress);
      await expect(shown.getByRole('heading', { level: 2 })).toHaveText(cardName(key));
      await expect(shown.getByTestId('agent-mac')).toContainText(key.macAddress);
      await expect(shown).toContainText(key.hostname);
      await expect(shown).toContainText(NO_EVENTS);
    }
    await expect(card(page, anonymous.macAddress).getByRole('heading', { level: 2 })).toHaveText('Agent User');

    // A reload lists the agents already there (the answer to /request/active-agents).
    await page.reload();
    await expect(liveStatus(page)).toHaveText('Live');
    await expect(cards(page)).toHaveCount(2);

    // One goes: its card goes, live; the last going leaves the empty text.
    await first.stop();
    await expect(card(page, named.macAddress)).toHaveCount(0);
    await expect(cards(page)).toHaveCount(1);
    await Promise.all(agents.map((item) => item.stop()));
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByText(NO_AGENTS)).toBeVisible();
  });

  test('executes a workflow, shows the last execution of a finished run, watches a run and terminates it', async ({
    page,
  }) => {
    // A new key: it has no stored run yet, so every last execution starts empty.
    const key = await generatedAgentKey(baseURL, HARBOR.name);
    const simulated = await agent(key);
    await signInByToken(page, HARBOR.head);
    await openEvents(page);
    const modal = await viewAll(page, key);
    await expect(modal.getByRole('tab', { name: 'Workflow List' })).toHaveAttribute('aria-selected', 'true');
    await expect(activeTab(modal).getByTestId('active-count')).toHaveText('0');

    // A quick run: queued, run, reported; its row's last execution fills in.
    const quickRow = workflowTable(modal).getByRole('row').filter({ hasText: QUICK });
    const lastExecution = quickRow.getByRole('cell').nth(1);
    await expect(lastExecution).toHaveText('-');
    const queuedAt = Date.now();
    await executeFromList(page, modal, QUICK);
    await expect(toast(page, `Successfully queued ${QUICK}`)).toBeVisible();
    await expect(lastExecution).not.toHaveText('-', { timeout: 15_000 });
    const shownAt = Date.now();
    const text = (await lastExecution.textContent()) ?? '';
    const minutes = new Set<string>();
    for (let at = queuedAt - 60_000; at <= shownAt + 60_000; at += 30_000) minutes.add(consoleDateTime(at));
    expect([...minutes], `the last execution ${text} is of this run`).toContain(text);
    await expect(activeTab(modal).getByTestId('active-count')).toHaveText('0');

    // A long run: it shows in the Active tab's count, runs, and heads the card's queue.
    await executeFromList(page, modal, LONG);
    await expect(toast(page, `Successfully queued ${LONG}`)).toBeVisible();
    await expect(activeTab(modal).getByTestId('active-count')).toHaveText('1');
    const onCard = card(page, key.macAddress).getByTestId('queue-item');
    await expect(onCard).toHaveCount(1);
    await expect(onCard).toHaveAttribute('data-status', 'running');
    await expect(onCard).toContainText(LONG);
    await expect(onCard).toContainText('Running');
    await activeTab(modal).click();
    const running = activeTable(modal).getByRole('row').filter({ hasText: LONG });
    await expect(running).toContainText('Running');
    await expect(running.getByRole('cell').nth(3)).toHaveText('1st');
    await expect(running.getByRole('button', { name: 'Terminate' })).toBeVisible();
    await expect(running.getByRole('button', { name: 'Unqueue' })).toHaveCount(0);
    expect(simulated.snapshot().queue).toMatchObject([{ name: LONG, status: 'EXECUTING', position: 1 }]);

    // Terminate, confirmed: the run stops and leaves the queue, on the agent and on the page.
    await running.getByRole('button', { name: 'Terminate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Terminate workflow' });
    await expect(confirm).toContainText(`Stop ${LONG}, running on Agent User?`);
    await confirm.getByRole('button', { name: 'Terminate' }).click();
    await expect(toast(page, `Successfully terminated ${LONG}`)).toBeVisible();
    await expect(activeTab(modal).getByTestId('active-count')).toHaveText('0');
    await expect(modal.getByText(NO_EVENTS)).toBeVisible();
    await expect(card(page, key.macAddress).getByTestId('queue-item')).toHaveCount(0);
    await expect.poll(() => simulated.snapshot().queue.length).toBe(0);
  });

  test('unqueues a queued run: positions with ordinals renumber, and the card counts the rest', async ({ page }) => {
    const key = await demoAgentKey(baseURL, HARBOR.name);
    const simulated = await agent(key);
    await signInByToken(page, HARBOR.head);
    await openEvents(page);
    const modal = await viewAll(page, key);

    // Three runs of the long workflow: one runs, two wait.
    for (let queued = 1; queued <= 3; queued += 1) {
      await executeFromList(page, modal, LONG);
      await expect(activeTab(modal).getByTestId('active-count')).toHaveText(String(queued));
    }
    await activeTab(modal).click();
    await expect
      .poll(() => activeRows(modal))
      .toEqual([
        [LONG, 'Running', expect.stringMatching(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2} [AP]M$/), '1st', 'Terminate'],
        [LONG, 'Queued', '-', '2nd', 'Unqueue'],
        [LONG, 'Queued', '-', '3rd', 'Unqueue'],
      ]);
    // The card: the first two by position, and how many more.
    const agentCard = card(page, key.macAddress);
    const onCard = agentCard.getByTestId('queue-item');
    await expect(onCard).toHaveCount(2);
    await expect(onCard.nth(0)).toHaveAttribute('data-status', 'running');
    await expect(onCard.nth(1)).toHaveAttribute('data-status', 'queued');
    await expect(onCard.nth(1)).toContainText('2nd in queue');
    await expect(agentCard.getByTestId('queue-more')).toHaveText('+1 more');

    // Unqueue the 2nd: that very entry leaves the agent's queue, and the 3rd moves up.
    const [first, second, third] = simulated.snapshot().queue;
    await activeTable(modal).locator('tbody tr').nth(1).getByRole('button', { name: 'Unqueue' }).click();
    const confirm = page.getByRole('dialog', { name: 'Unqueue workflow' });
    await expect(confirm).toContainText(`Remove ${LONG} from the queue of ${cardName(key)}?`);
    await confirm.getByRole('button', { name: 'Unqueue' }).click();
    await expect(toast(page, `Successfully unqueued ${LONG}`)).toBeVisible();
    await expect(activeTab(modal).getByTestId('active-count')).toHaveText('2');
    await expect
      .poll(() => activeRows(modal))
      .toEqual([
        [LONG, 'Running', expect.any(String), '1st', 'Terminate'],
        [LONG, 'Queued', '-', '2nd', 'Unqueue'],
      ]);
    expect(simulated.snapshot().queue.map(({ id, position }) => ({ id, position }))).toEqual([
      { id: first!.id, position: 1 },
      { id: third!.id, position: 2 },
    ]);
    expect(second!.position).toBe(2);
    // Two left: both on the card, nothing more to count.
    await expect(onCard).toHaveCount(2);
    await expect(onCard.nth(1)).toContainText('2nd in queue');
    await expect(agentCard.getByTestId('queue-more')).toHaveCount(0);
  });

  test("a second company's head sees none of the first company's agents", async ({ page, browser }) => {
    const harborKey = await demoAgentKey(baseURL, HARBOR.name);
    const cedarKey = await demoAgentKey(baseURL, CEDAR.name);
    const harborAgent = await agent(harborKey);
    await agent(cedarKey);
    // Something on the Harbor agent's queue, so its changes travel too while Cedar watches.
    harborAgent.execute(agentWorkflowId(harborAgent, LONG));

    await signInByToken(page, CEDAR.head);
    await openEvents(page);
    await expect(card(page, cedarKey.macAddress)).toBeVisible();
    await expect(card(page, cedarKey.macAddress).getByRole('heading', { level: 2 })).toHaveText(cardName(cedarKey));
    await expect(cards(page)).toHaveCount(1);

    const harbor = await (await browser.newContext()).newPage();
    try {
      await signInByToken(harbor, HARBOR.head);
      await openEvents(harbor);
      await expect(card(harbor, harborKey.macAddress).getByTestId('queue-item')).toHaveAttribute(
        'data-status',
        'running',
      );
      await expect(cards(harbor)).toHaveCount(1);
      await expect(card(harbor, cedarKey.macAddress)).toHaveCount(0);
      // A change on Harbor's agent (a new run queued) reaches Harbor's page and not Cedar's.
      harborAgent.execute(agentWorkflowId(harborAgent, LONG));
      await expect(card(harbor, harborKey.macAddress).getByTestId('queue-item')).toHaveCount(2);
    } finally {
      await harbor.context().close();
    }
    await expect(cards(page)).toHaveCount(1);
    await expect(card(page, harborKey.macAddress)).toHaveCount(0);
    await expect(page.getByText(harborKey.macAddress)).toHaveCount(0);
  });
});

let restartAgent: TestAgent | undefined;

test.afterAll(async () => {
  await restartAgent?.stop();
  restartAgent = undefined;
});

test.describe('workflow events across a server restart', () => {
  // The worker's own server (tests/fixtures.ts), stopped and started again on its port and database:
  // the worker's later tests find it back, and should this test fail with it stopped, the worker
  // and its server are replaced.
  test('loses the connection when the server stops, refuses commands meanwhile, and recovers when it is back', async ({
    browser,
    server,
  }) => {
    test.setTimeout(150_000);

    const key = await demoAgentKey(server.url, HARBOR.name);
    // Slow: a demo run of 90 s lasts three minutes, through the restart.
    const agent = await startTestAgent(server.url, key, { speed: 0.5 });
    restartAgent = agent;
    const page = await (await browser.newContext({ baseURL: server.url })).newPage();
    await signInByToken(page, HARBOR.head);
    await openEvents(page);
    agent.execute(agentWorkflowId(agent, 'Post invoices to SAP'));
    await expect(card(page, key.macAddress).getByTestId('queue-item')).toHaveAttribute('data-status', 'running');

    // The terminate question is open when the server goes.
    const modal = await viewAll(page, key);
    await activeTab(modal).click();
    await activeTable(modal).getByRole('button', { name: 'Terminate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Terminate workflow' });
    await expect(confirm).toBeVisible();

    // The server stops on SIGTERM with live sockets open (closing them first), within 5 s.
    expect(await server.stop()).toBe(true);
    await expect(liveStatus(page)).toHaveText('Reconnecting…');
    await expect(liveStatus(page)).toHaveAttribute('data-status', 'reconnecting');
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByText(NO_AGENTS)).toHaveCount(0);
    await expect(modal.getByText('This agent has disconnected.')).toBeVisible();
    await expect(activeTab(modal).getByTestId('active-count')).toHaveText('0');
    await expect(modal.getByRole('button', { name: /^(Terminate|Unqueue)$/ })).toHaveCount(0);
    // Confirming without a connection says so, and sends nothing.
    await confirm.getByRole('button', { name: 'Terminate' }).click();
    await expect(toast(page, CONNECTION_FAILURE)).toBeVisible();
    await expect(confirm).toBeHidden();
    // Nothing to execute either: the agent's list went with it.
    await modal.getByRole('tab', { name: 'Workflow List' }).click();
    await expect(modal.getByText('No workflows at the moment.')).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Execute' })).toHaveCount(0);
    await modal.getByRole('button', { name: 'Close' }).click();

    // The same port and database: the console and the agent come back by themselves.
    await server.start();
    await expect(liveStatus(page)).toHaveText('Live', { timeout: 45_000 });
    const back = card(page, key.macAddress);
    await expect(back).toBeVisible({ timeout: 45_000 });
    await expect(back.getByRole('heading', { level: 2 })).toHaveText(cardName(key));
    // The agent kept running meanwhile and tells the new session its queue.
    await expect(back.getByTestId('queue-item')).toHaveAttribute('data-status', 'running');
    await expect(back.getByTestId('queue-item')).toContainText('Post invoices to SAP');
    expect(agent.snapshot().queue).toMatchObject([{ name: 'Post invoices to SAP', status: 'EXECUTING' }]);
    await page.context().close();
  });
});
