import { describe, expect, it } from 'vitest';
import { RUNS_OWN_PROCESS_TESTS } from '../../../test/database';
import { runSigkillFaults, violations } from '../../../test/sigkill-uploads';

/**
 * The server SIGKILLed in the middle of `.rax` uploads, new versions and zip downloads, then
 * started again on its PGlite directory (issue 18; docs/workflows.md, "Storage"): it starts each
 * time, loses no upload it answered, keeps none by halves, and leaves no version without its blob
 * nor a blob without a version. Three rounds here, one of each kind (each a restart of a child process, slow on a busy machine); 50 in
 * `node --import tsx bench/fault-sigkill-uploads.ts` (docs/performance.md, "Faults (issue 18)").
 */
describe.runIf(RUNS_OWN_PROCESS_TESTS)('SIGKILL during uploads and downloads', () => {
  it('leaves the workflows whole and the server starting clean, round after round', async () => {
    const lines: string[] = [];
    const result = await runSigkillFaults({
      kills: Number(process.env.FAULT_KILLS ?? 3),
      seed: Number(process.env.FAULT_SEED ?? 18),
      resourceBytes: 1024 * 1024,
      log: (line) => lines.push(line),
    });
    expect(violations(result), lines.join('\n')).toEqual([]);
    expect(result.kills.length).toBe(Number(process.env.FAULT_KILLS ?? 3));
    // Everything the rounds stored is there, each file once.
    expect(result.counts.blobs).toBe(result.counts.versions);
  }, 600_000);
});
