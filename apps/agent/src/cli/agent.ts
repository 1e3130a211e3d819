// `npm run agent -- --key KEY --mac MAC [--url URL] …`: one simulated agent (apps/agent/README.md).
import { startAgent } from '../agent';
import { AGENT_USAGE, parseAgentArgs, UsageError } from '../args';
import { LicenseFileError, maskKey, readLicenseFile } from '../license-file';
import { consoleLog } from '../log';

async function main() {
  let args: ReturnType<typeof parseAgentArgs>;
  try {
    args = parseAgentArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${AGENT_USAGE}\n`);
    process.exit(2);
  }
  if (args.help) {
    process.stdout.write(`${AGENT_USAGE}\n`);
    return;
  }

  let key = args.key;
  let mac = args.mac;
  let hostname = args.hostname;
  if (args.licenseFile) {
    try {
      const file = await readLicenseFile(args.licenseFile);
      key = file.key;
      mac ??= file.macAddresses[0];
      hostname ??= file.hostname ?? undefined;
    } catch (error) {
      const reason = error instanceof LicenseFileError ? error.message : (error as Error).message;
      process.stderr.write(`cannot read ${args.licenseFile}: ${reason}\n`);
      process.exit(2);
    }
    if (!mac) {
      process.stderr.write(`${args.licenseFile} names no MAC address: give --mac\n`);
      process.exit(2);
    }
  }

  const log = consoleLog(args.verbose ? 'debug' : 'info');
  const agent = startAgent({
    url: args.url,
    licenseKey: key!,
    macAddress: mac!,
    hostname,
    speed: args.speed,
    failureRate: args.failureRate,
    selfStartPerHour: args.selfStartPerHour,
    log,
  });
  log('info', `agent ${maskKey(key!)} on ${mac} starting against ${agent.wsUrl}`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void agent.stop().then(() => process.exit(0));
    });
  }
}

await main();
