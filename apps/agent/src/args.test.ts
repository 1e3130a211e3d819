import { describe, expect, it } from 'vitest';
import { parseAgentArgs, parseFleetArgs, UsageError } from './args';

describe('parseAgentArgs', () => {
  it('reads a key, a MAC address and the options', () => {
    expect(
      parseAgentArgs([
        '--key',
        'ODK-AAAA-BBBB',
        '--mac',
        'aa-bb-cc-dd-ee-ff',
        '--url',
        'http://127.0.0.1:8290/',
        '--speed',
        '20',
        '--failure-rate',
        '0.5',
        '--hostname',
        'robot-1',
      ]),
    ).toEqual({
      help: false,
      key: 'ODK-AAAA-BBBB',
      mac: 'aa-bb-cc-dd-ee-ff',
      licenseFile: undefined,
      url: 'http://127.0.0.1:8290',
      hostname: 'robot-1',
      speed: 20,
      failureRate: 0.5,
      selfStartPerHour: 3,
      verbose: false,
    });
  });

  it('has defaults', () => {
    expect(parseAgentArgs(['--license-file', 'a.lic'])).toMatchObject({
      url: 'http://localhost:8080',
      speed: 1,
      failureRate: 0.1,
      selfStartPerHour: 3,
      licenseFile: 'a.lic',
    });
  });

  it.each([
    [[], /--key .* or --license-file is required/],
    [['--key', 'K'], /--mac is required/],
    [['--key', 'K', '--license-file', 'x.lic'], /not both/],
    [['--key', 'K', '--mac', 'AA:BB:CC:DD:EE'], /six hexadecimal pairs/],
    [['--key', 'K', '--mac', 'AA:BB-CC:DD:EE:FF'], /six hexadecimal pairs/],
    [['--key', 'K', '--mac', 'AA:BB:CC:DD:EE:FF', '--speed', '0'], /--speed must be a number greater than 0/],
    [['--key', 'K', '--mac', 'AA:BB:CC:DD:EE:FF', '--speed', 'fast'], /--speed/],
    [
      ['--key', 'K', '--mac', 'AA:BB:CC:DD:EE:FF', '--failure-rate', '2'],
      /--failure-rate must be a number from 0 to 1/,
    ],
    [['--key', 'K', '--mac', 'AA:BB:CC:DD:EE:FF', '--url', 'ftp://x'], /--url must be an http/],
    [['--key', 'K', '--mac', 'AA:BB:CC:DD:EE:FF', '--colour', 'red'], /Unknown option '--colour'/],
    [['--key'], /argument missing/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseAgentArgs(argv)).toThrow(UsageError);
    expect(() => parseAgentArgs(argv)).toThrow(message);
  });

  it('answers --help without the other arguments', () => {
    expect(parseAgentArgs(['--help']).help).toBe(true);
  });
});

describe('parseFleetArgs', () => {
  it('reads the options, the admin from the environment by default', () => {
    expect(
      parseFleetArgs(['--count', '25', '--per-company', '2', '--speed', '5'], { ADMIN_EMAIL: 'root@x.test' }),
    ).toEqual({
      help: false,
      count: 25,
      perCompany: 2,
      url: 'http://localhost:8080',
      adminEmail: 'root@x.test',
      adminPassword: 'opsdeck-demo',
      speed: 5,
      failureRate: 0.1,
      selfStartPerHour: 3,
      demo: false,
      verbose: false,
    });
  });

  it('takes --demo without --count, its runners starting 15 runs an hour each unless told otherwise', () => {
    expect(parseFleetArgs(['--demo', '--url', 'http://127.0.0.1:8291'], {})).toMatchObject({
      demo: true,
      perCompany: Number.POSITIVE_INFINITY,
      count: undefined,
      url: 'http://127.0.0.1:8291',
      selfStartPerHour: 15,
    });
    expect(parseFleetArgs(['--demo', '--self-start', '2'], {})).toMatchObject({ selfStartPerHour: 2 });
  });

  it.each([
    [[], /--count N \(or --demo\) is required/],
    [['--count', '0'], /--count must be a whole number/],
    [['--count', '2.5'], /--count must be a whole number/],
    [['--count', '3', '--per-company', '0'], /--per-company/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseFleetArgs(argv, {})).toThrow(message);
  });
});
