// `npm run agents -- --count N | --demo`: many simulated agents in one process (apps/agent/README.md).
import { FLEET_USAGE, type FleetArgs, parseFleetArgs, UsageError } from '../args';
import { AdminApi, ApiError, type FleetWorkdays, planFleet, startFleet, startWorkdays } from '../fleet';
import { consoleLog } from '../log';

/** Demo keys per company that also start runs of their own (the rest only act out their people's days). */
const DEMO_RUNNERS_PER_COMPANY = 3;

async function main() {
  let args: FleetArgs;
  try {
    args = parseFleetArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${FLEET_USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${FLEET_USAGE}\n`);
    return;
  }
  const say = (line: string) => process.stdout.write(`${args.demo ? 'demo agents: ' : ''}${line}\n`);

  const api = new AdminApi(args.url);
  try {
    await api.signIn(args.adminEmail, args.adminPassword);
  } catch (error) {
    if (args.demo) {
      // The demo's password was changed, or this is not the demo: nothing to simulate, and no failure.
      say(`none started (the provider admin could not sign in: ${(error as Error).message})`);
      process.exit(0);
    }
    process.stderr.write(`cannot sign in as ${args.adminEmail}: ${(error as Error).message}\n`);
    process.exit(1);
  }

  let members: Awaited<ReturnType<typeof planFleet>>;
  try {
    members = await planFleet(api, {
      count: args.count,
      perCompany: args.perCompany,
      generate: !args.demo,
      log: args.demo ? undefined : (line) => say(line),
    });
  } catch (error) {
    const reason = error instanceof ApiError ? error.message : String(error);
    if (args.demo) {
      say(`none started (${reason})`);
      process.exit(0);
    }
    process.stderr.write(`cannot choose the fleet's keys: ${reason}\n`);
    process.exit(1);
  }
  if (members.length === 0) {
    say(args.demo ? 'none started (the server has no demo keys)' : 'no keys to run agents with');
    process.exit(args.demo ? 0 : 1);
  }
  if (args.demo) {
    // Every demo person acts out their working days; runs of their own on a few keys a company
    // only, as before: the history's pace, and a light demo.
    const seen = new Map<string, number>();
    for (const member of members) {
      const count = (seen.get(member.company) ?? 0) + 1;
      seen.set(member.company, count);
      member.runs = count <= DEMO_RUNNERS_PER_COMPANY;
    }
  }

  // The demo is quiet: one line now, and each kind of refusal once (a licence invalidated in the console, say).
  const log = args.verbose ? consoleLog('debug') : args.demo ? undefined : consoleLog('info');
  const fleet = await startFleet(members, {
    url: args.url,
    speed: args.speed,
    failureRate: args.failureRate,
    selfStartPerHour: args.selfStartPerHour,
    firstSelfStartWithinSeconds: args.demo ? 60 : undefined,
    log,
  });
  if (args.demo && !args.verbose) {
    const told = new Set<string>();
    for (const agent of fleet.agents) {
      agent.on('refused', (key) => {
        if (told.has(key)) return;
        told.add(key);
        say(`${agent.label} refused: ${key}`);
      });
      // A refused SEND (an activity span the server would not take, say): each kind once too.
      agent.on('refusal', (refusal) => {
        const kind = `${refusal.destination} ${refusal.key}`;
        if (told.has(kind)) return;
        told.add(kind);
        say(`${agent.label}: the server refused ${kind} (${refusal.message})`);
      });
    }
  }
  let workdays: FleetWorkdays | undefined;
  let acting = 0;
  if (args.demo) {
    workdays = startWorkdays(api, members, fleet.agents, { log: args.verbose ? say : undefined });
    acting = await workdays.refresh();
  }
  const companies = new Set(members.map((member) => member.company)).size;
  const generated = members.filter((member) => member.source === 'generated').length;
  say(
    `${members.length} simulated agent${members.length === 1 ? '' : 's'} of ${companies} compan${companies === 1 ? 'y' : 'ies'}` +
      `${generated ? ` (${generated} on generated keys)` : ''}${acting ? `, ${acting} acting out their people's working days` : ''} → ${args.url}`,
  );

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      workdays?.stop();
      void fleet.stop().then(() => process.exit(0));
    });
  }
}

await main();
