import type { AgentLog, AgentLogLevel } from './agent';

const RANK: Record<AgentLogLevel, number> = { debug: 0, info: 1, warn: 2 };

/** One line per event on stdout, from `minimum` up. */
export function consoleLog(minimum: AgentLogLevel): AgentLog {
  return (level, message) => {
    if (RANK[level] >= RANK[minimum])
      process.stdout.write(`${new Date().toISOString()} ${level.padEnd(5)} ${message}\n`);
  };
}
