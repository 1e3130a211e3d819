import type { QueueChanges, QueuedWorkflow } from '@opsdeck/contract/live';

/** What one change of the queue tells the server on `/agent/queue`. */
export type QueueDiff = QueueChanges;

const emptyDiff = (): QueueDiff => ({ added: [], updated: [], removed: [] });

/**
 * An agent's queue of runs (docs/live-channel.md, "Agents"): entries run one at a time, in the
 * order they were queued. Positions start at 1 (the spec shows them as ordinals, and position 0
 * means "not running"), so the entry that runs is always position 1. Every change answers the diff
 * to send: entries that move up when one leaves are sent as `updated`. Entry ids are the agent's
 * own increasing positive integers, never reused while the agent lives, so a console's terminate
 * cannot hit a later entry by mistake.
 */
export class AgentQueue {
  private entries: QueuedWorkflow[] = [];
  private lastId = 0;

  constructor(private readonly now: () => number = Date.now) {}

  get size() {
    return this.entries.length;
  }

  /** Copies of the entries, in order. */
  list(): QueuedWorkflow[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  find(id: number): QueuedWorkflow | undefined {
    const entry = this.entries.find((item) => item.id === id);
    return entry && { ...entry };
  }

  running(): QueuedWorkflow | undefined {
    const first = this.entries[0];
    return first?.status === 'EXECUTING' ? { ...first } : undefined;
  }

  /** Queues a run of the workflow at the end. */
  enqueue(workflowId: number, name: string): { entry: QueuedWorkflow; diff: QueueDiff } {
    this.lastId += 1;
    const entry: QueuedWorkflow = {
      id: this.lastId,
      workflowId,
      name,
      status: 'QUEUED',
      position: this.entries.length + 1,
      executionStart: null,
    };
    this.entries.push(entry);
    return { entry: { ...entry }, diff: { ...emptyDiff(), added: [{ ...entry }] } };
  }

  /** Starts the first entry when nothing runs; null when something runs already or the queue is empty. */
  startNext(): { entry: QueuedWorkflow; diff: QueueDiff } | null {
    const first = this.entries[0];
    if (!first || first.status === 'EXECUTING') return null;
    first.status = 'EXECUTING';
    first.executionStart = this.now();
    return { entry: { ...first }, diff: { ...emptyDiff(), updated: [{ ...first }] } };
  }

  /** Takes an entry out (a run that ended, or one unqueued); those behind it move up. Null when it is not there. */
  remove(id: number): { entry: QueuedWorkflow; diff: QueueDiff } | null {
    const index = this.entries.findIndex((item) => item.id === id);
    if (index < 0) return null;
    const [entry] = this.entries.splice(index, 1);
    const diff = emptyDiff();
    diff.removed.push(id);
    for (const [i, item] of this.entries.entries()) {
      if (item.position !== i + 1) {
        item.position = i + 1;
        diff.updated.push({ ...item });
      }
    }
    return { entry: entry!, diff };
  }

  /**
   * Names the entries of a workflow after it (a command can arrive before the workflow list that
   * names it, or the workflow is renamed while queued). An empty diff when nothing changed.
   */
  rename(workflowId: number, name: string): QueueDiff {
    const diff = emptyDiff();
    for (const item of this.entries) {
      if (item.workflowId === workflowId && item.name !== name) {
        item.name = name;
        diff.updated.push({ ...item });
      }
    }
    return diff;
  }

  /** The whole queue as `added`: what a fresh connection tells the server. */
  announce(): QueueDiff {
    return { ...emptyDiff(), added: this.list() };
  }
}
