import path from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** Where the user ran `npm run …` from: npm runs root scripts in the repository's root. */
export const userPath = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

/** The command line, or the usage and exit code 2 when it does not parse. */
export function args<const T extends NonNullable<ParseArgsConfig['options']>>(options: T, usage: string) {
  try {
    return parseArgs({ options, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}
