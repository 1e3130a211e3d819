import type { ExecutionReport } from '@opsdeck/contract/live';
import { describe, expect, it } from 'vitest';
import { MAX_REPORT_FAILURES, ReportOutbox } from './report-outbox';

const report = (n: number): ExecutionReport => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  workflowId: 1,
  executionStart: 1_000 * n,
  executionEnd: 1_000 * n + 500,
  statusType: 'success',
  errorMessage: null,
  errorActivity: null,
});

/** An outbox over a transport the test answers by hand: each send waits for a receipt or a refusal. */
function outbox() {
  let connected = true;
  const sent: { id: string; receipt: () => void }[] = [];
  const receipted: string[] = [];
  const logs: string[] = [];
  const box = new ReportOutbox(
    {
      send: (item, onReceipt) => {
        if (!connected) return false;
        sent.push({ id: item.id, receipt: onReceipt });
        return true;
      },
    },
    {
      random: () => 0,
      retry: { firstMs: 2, maxMs: 8 },
      log: (_level, line) => logs.push(line),
      onReceipted: (id) => receipted.push(id),
    },
  );
  /** Resolves when the outbox has sent `count` frames in all. */
  const sends = async (count: number) => {
    while (sent.length < count) await new Promise((resolve) => setImmediate(resolve));
  };
  const setConnected = (on: boolean) => {
    connected = on;
    if (on) box.onConnected();
    else box.onDisconnected();
  };
  return { box, sent, receipted, logs, sends, setConnected };
}

describe('ReportOutbox', () => {
  it('sends a report refused for now again on the same connection until it is receipted', async () => {
    const { box, sent, receipted, sends } = outbox();
    box.add(report(1));
    for (let refusal = 1; refusal <= 20; refusal += 1) {
      box.onRefusal('ERROR_SERVICE_UNAVAILABLE');
      await sends(refusal + 1);
    }
    expect(box.size).toBe(1);
    sent.at(-1)!.receipt();
    expect(receipted).toEqual([report(1).id]);
    expect(box.size).toBe(0);
    expect(new Set(sent.map((item) => item.id))).toEqual(new Set([report(1).id]));
  });

  it('matches refusals to reports by order: the oldest in flight is the one refused', async () => {
    const { box, sent, receipted, sends, logs } = outbox();
    box.add(report(1));
    box.add(report(2));
    box.add(report(3));
    box.onRefusal('ERROR_WORKFLOW_NOT_EXIST');
    sent[1]!.receipt();
    box.onRefusal('ERROR_SERVICE_UNAVAILABLE');
    await sends(4);
    expect(sent.map((item) => item.id)).toEqual([report(1).id, report(2).id, report(3).id, report(3).id]);
    sent[3]!.receipt();
    expect(receipted).toEqual([report(2).id, report(3).id]);
    expect(box.size).toBe(0);
    expect(
      logs.some((line) => line.includes(`dropped execution report ${report(1).id}: refused: ERROR_WORKFLOW_NOT_EXIST`)),
    ).toBe(true);
  });

  it('sends every report again after a reconnect, and none while disconnected', async () => {
    const { box, sent, receipted, setConnected } = outbox();
    setConnected(false);
    box.add(report(1));
    expect(sent).toEqual([]);
    setConnected(true);
    box.add(report(2));
    setConnected(false);
    setConnected(true);
    expect(sent.map((item) => item.id)).toEqual([report(1).id, report(2).id, report(1).id, report(2).id]);
    sent[2]!.receipt();
    sent[3]!.receipt();
    expect(receipted).toEqual([report(1).id, report(2).id]);
  });

  it('a retry waiting when the connection closes gives way to the reconnect, which sends at once', () => {
    const { box, sent, receipted, setConnected } = outbox();
    box.add(report(1));
    box.onRefusal('ERROR_SERVICE_UNAVAILABLE');
    setConnected(false);
    setConnected(true);
    expect(sent.map((item) => item.id)).toEqual([report(1).id, report(1).id]);
    sent[1]!.receipt();
    expect(receipted).toEqual([report(1).id]);
  });

  it(`drops a report after ${MAX_REPORT_FAILURES} connections closed before any answer, never for the database being away`, async () => {
    const { box, setConnected, sent, sends } = outbox();
    box.add(report(1));
    for (let refusal = 1; refusal <= 3 * MAX_REPORT_FAILURES; refusal += 1) {
      box.onRefusal('ERROR_SERVICE_UNAVAILABLE');
      await sends(refusal + 1);
    }
    for (let closed = 1; closed < MAX_REPORT_FAILURES; closed += 1) {
      setConnected(false);
      setConnected(true);
    }
    expect(box.size).toBe(1);
    setConnected(false);
    expect(box.size).toBe(0);
    setConnected(true);
    expect(sent.length).toBe(3 * MAX_REPORT_FAILURES + MAX_REPORT_FAILURES);
  });
});
