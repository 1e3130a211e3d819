import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, SERVER_COMMANDS, type StompFrame, StompProtocolError } from './codec';

const LIMIT = 1024;
const frame = (command: string, headers: Record<string, string> = {}, body: string | Buffer = ''): StompFrame => ({
  command,
  headers,
  body: typeof body === 'string' ? Buffer.from(body) : body,
});
const decoder = (maxFrameBytes = LIMIT) => new FrameDecoder({ maxFrameBytes });
const frames = (items: Array<StompFrame | 'heartbeat'>) => items.filter((item) => item !== 'heartbeat');
/** Plain objects for comparison (decoded headers have no prototype). */
const plain = (item: StompFrame | 'heartbeat') =>
  item === 'heartbeat' ? item : { command: item.command, headers: { ...item.headers }, body: item.body.toString() };

function decodeAll(chunks: Array<Buffer | string>, maxFrameBytes = LIMIT) {
  const d = decoder(maxFrameBytes);
  return chunks.flatMap((chunk) => d.push(chunk)).map(plain);
}

function expectProtocolError(fn: () => unknown, key: string) {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(StompProtocolError);
  expect((caught as StompProtocolError).key).toBe(key);
}

/** A deterministic PRNG (mulberry32): a failing fuzz case can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('encodeFrame', () => {
  it('escapes header names and values, adds content-length and ends with NUL', () => {
    const bytes = encodeFrame(frame('MESSAGE', { 'a:b': 'x\\y\nz\r:' }, '{"a":1}'));
    expect(bytes.toString()).toBe('MESSAGE\na\\cb:x\\\\y\\nz\\r\\c\ncontent-length:7\n\n{"a":1}\0');
  });

  it('leaves CONNECT and CONNECTED unescaped, and refuses what would break their lines', () => {
    expect(encodeFrame(frame('CONNECTED', { version: '1.2', server: 'a:b\\c' })).toString()).toBe(
      'CONNECTED\nversion:1.2\nserver:a:b\\c\n\n\0',
    );
    expect(() => encodeFrame(frame('CONNECT', { login: 'a\nforged:1' }))).toThrow(TypeError);
  });

  it('adds no content-length to an empty body and replaces a wrong one', () => {
    expect(encodeFrame(frame('RECEIPT', { 'receipt-id': '7' })).toString()).toBe('RECEIPT\nreceipt-id:7\n\n\0');
    expect(encodeFrame(frame('SEND', { 'content-length': '99' }, 'é')).toString()).toBe(
      'SEND\ncontent-length:2\n\né\0',
    );
  });

  it('does not escape for a 1.0 peer', () => {
    expect(encodeFrame(frame('MESSAGE', { a: 'b:c' }), { escape: false }).toString()).toBe('MESSAGE\na:b:c\n\n\0');
  });
});

describe('FrameDecoder', () => {
  it('round-trips escaped headers', () => {
    const headers = { destination: '/topic/a:b', 'we\\ird\nname': 'line\none\rtwo\\three:four' };
    const [decoded] = decodeAll([encodeFrame(frame('SEND', headers, 'body'))]);
    expect(decoded).toEqual({ command: 'SEND', headers: { ...headers, 'content-length': '4' }, body: 'body' });
  });

  it('takes CONNECT headers literally: they are not escaped', () => {
    const [decoded] = decodeAll(['CONNECT\npasscode:a\\tb:c\naccept-version:1.2\n\n\0']);
    expect(decoded).toEqual({
      command: 'CONNECT',
      headers: { passcode: 'a\\tb:c', 'accept-version': '1.2' },
      body: '',
    });
  });

  it('keeps the first of repeated headers', () => {
    const [decoded] = decodeAll(['SEND\ndestination:/a\ndestination:/b\n\n\0']);
    expect(decoded).toMatchObject({ headers: { destination: '/a' } });
  });

  it('reads a content-length body holding NUL bytes', () => {
    const body = Buffer.from([1, 0, 2, 0, 0, 3]);
    const d = decoder();
    const [decoded] = frames(d.push(encodeFrame(frame('SEND', { destination: '/a' }, body))));
    expect(decoded?.body.equals(body)).toBe(true);
  });

  it('reads a body without content-length up to the first NUL', () => {
    expect(decodeAll(['SEND\ndestination:/a\n\nhello\0SEND\ndestination:/b\n\n\0'])).toEqual([
      { command: 'SEND', headers: { destination: '/a' }, body: 'hello' },
      { command: 'SEND', headers: { destination: '/b' }, body: '' },
    ]);
  });

  it('refuses a content-length body not followed by NUL', () => {
    expectProtocolError(
      () => decoder().push('SEND\ndestination:/a\ncontent-length:2\n\nabc\0'),
      'ERROR_LIVE_FRAME_INVALID',
    );
  });

  it('accepts CRLF line endings and bare EOLs between frames as heart-beats', () => {
    expect(decodeAll(['\n\r\nSEND\r\ndestination:/a\r\n\r\nx\0\n\r\n\nACK\nid:1\n\n\0\n'])).toEqual([
      'heartbeat',
      'heartbeat',
      { command: 'SEND', headers: { destination: '/a' }, body: 'x' },
      'heartbeat',
      'heartbeat',
      'heartbeat',
      { command: 'ACK', headers: { id: '1' }, body: '' },
      'heartbeat',
    ]);
  });

  it('waits on a CR at the end of a chunk, and refuses a CR not followed by LF', () => {
    const d = decoder();
    expect(d.push('\r')).toEqual([]);
    expect(d.push('\n')).toEqual(['heartbeat']);
    expectProtocolError(() => decoder().push('\rX'), 'ERROR_LIVE_FRAME_INVALID');
    expectProtocolError(() => decoder().push('SEND\ndestination:/a\rb\n\n\0'), 'ERROR_LIVE_FRAME_INVALID');
  });

  it('decodes multi-byte UTF-8 split inside a character', () => {
    const text = 'é€😀';
    const bytes = encodeFrame(frame('SEND', { destination: `/q/${text}`, note: text }, text));
    const decoded = decodeAll([...bytes].map((byte) => Buffer.from([byte])));
    expect(decoded).toEqual([
      {
        command: 'SEND',
        headers: { destination: `/q/${text}`, note: text, 'content-length': String(Buffer.byteLength(text)) },
        body: text,
      },
    ]);
  });

  it('decodes the same frames wherever a stream is split', () => {
    const stream = Buffer.concat([
      Buffer.from('\n'),
      encodeFrame(frame('CONNECT', { 'accept-version': '1.2', host: 'h', 'heart-beat': '0,0' })),
      Buffer.from('\r\n'),
      encodeFrame(frame('SUBSCRIBE', { id: 's:1', destination: '/topic/€' })),
      encodeFrame(frame('SEND', { destination: '/a' }, Buffer.from([0x7b, 0, 0x7d]))),
      Buffer.from('SEND\r\ndestination:/b\r\n\r\nno length\0\n'),
      encodeFrame(frame('DISCONNECT', { receipt: '9' })),
    ]);
    const whole = decodeAll([stream]);
    expect(whole.filter((item) => item !== 'heartbeat')).toHaveLength(5);
    for (let at = 0; at <= stream.length; at += 1) {
      expect(decodeAll([stream.subarray(0, at), stream.subarray(at)]), `split at ${at}`).toEqual(whole);
    }
    for (let a = 0; a <= stream.length; a += 7) {
      for (let b = a; b <= stream.length; b += 5) {
        const parts = [stream.subarray(0, a), stream.subarray(a, b), stream.subarray(b)];
        expect(decodeAll(parts), `split at ${a} and ${b}`).toEqual(whole);
      }
    }
    expect(decodeAll([...stream].map((byte) => Buffer.from([byte])))).toEqual(whole);
  });

  it('reads strings as well as buffers', () => {
    expect(decodeAll(['SEND\ndestination:/a\n\n', 'é\0'])).toEqual([
      { command: 'SEND', headers: { destination: '/a' }, body: 'é' },
    ]);
  });

  it('decodes server frames when told to', () => {
    const d = new FrameDecoder({ maxFrameBytes: LIMIT, commands: SERVER_COMMANDS });
    expect(frames(d.push('MESSAGE\nsubscription:1\n\n\0'))).toHaveLength(1);
    expectProtocolError(() => decoder().push('MESSAGE\nsubscription:1\n\n\0'), 'ERROR_LIVE_FRAME_INVALID');
  });

  describe('oversized frames', () => {
    it('are refused from content-length, before the body arrives', () => {
      const d = decoder();
      expectProtocolError(
        () => d.push(`SEND\ndestination:/a\ncontent-length:${LIMIT}\n\n`),
        'ERROR_LIVE_FRAME_TOO_LARGE',
      );
      expectProtocolError(
        () => decoder().push('SEND\ncontent-length:99999999999999999999\n\n'),
        'ERROR_LIVE_FRAME_TOO_LARGE',
      );
    });

    it('are refused while a body without content-length is still arriving, holding at most the limit', () => {
      const d = decoder();
      d.push('SEND\ndestination:/a\n\n');
      let caught: unknown;
      let chunks = 0;
      try {
        for (; chunks < 1000; chunks += 1) {
          d.push(Buffer.alloc(100, 0x61));
          expect(d.bufferedBytes).toBeLessThanOrEqual(LIMIT + 100);
        }
      } catch (err) {
        caught = err;
      }
      expect(caught).toMatchObject({ key: 'ERROR_LIVE_FRAME_TOO_LARGE' });
      expect(chunks).toBeLessThanOrEqual(LIMIT / 100 + 1);
    });

    it('are refused while headers never end', () => {
      const d = decoder();
      d.push('SEND\n');
      expectProtocolError(() => {
        for (let i = 0; i < 1000; i += 1) d.push(`x${i}:${'y'.repeat(20)}\n`);
      }, 'ERROR_LIVE_FRAME_TOO_LARGE');
    });

    it('count command, headers and body: a frame at the limit passes, one byte more does not', () => {
      const head = 'SEND\ndestination:/a\n\n';
      const body = 'b'.repeat(LIMIT - head.length);
      expect(frames(decoder().push(`${head}${body}\0`))).toHaveLength(1);
      expectProtocolError(() => decoder().push(`${head}${body}b\0`), 'ERROR_LIVE_FRAME_TOO_LARGE');
      const withLength = encodeFrame(frame('SEND', { destination: '/a' }, 'x'.repeat(900)));
      expect(frames(decoder().push(withLength))).toHaveLength(1);
    });

    it('cost linear time when a large frame comes byte by byte', () => {
      const big = encodeFrame(frame('SEND', { destination: '/a' }, 'z'.repeat(60_000)));
      const d = decoder(64 * 1024);
      const started = performance.now();
      const out = [];
      for (let i = 0; i < big.length; i += 1) out.push(...d.push(big.subarray(i, i + 1)));
      expect(out).toHaveLength(1);
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });

  describe('garbage', () => {
    const cases: Array<[string, string | Buffer]> = [
      ['an unknown command', 'HELLO\n\n\0'],
      ['a lower-case command', 'send\ndestination:/a\n\n\0'],
      ['a server command from a client', 'CONNECTED\n\n\0'],
      ['a header without a colon', 'SEND\ndestination\n\n\0'],
      ['a header without a name', 'SEND\n:/a\n\n\0'],
      ['a non-numeric content-length', 'SEND\ncontent-length:abc\n\n\0'],
      ['a negative content-length', 'SEND\ncontent-length:-1\n\n\0'],
      ['a fractional content-length', 'SEND\ncontent-length:1.5\n\n\0'],
      ['an undefined escape', 'SEND\ndestination:/a\\tb\n\n\0'],
      ['a trailing backslash', 'SEND\ndestination:/a\\\n\n\0'],
      ['non-UTF-8 header bytes', Buffer.from([...Buffer.from('SEND\ndestination:/'), 0xc3, 0x28, 10, 10, 0])],
      ['non-UTF-8 command bytes', Buffer.from([0xff, 0xfe, 10, 10, 0])],
      ['a NUL inside the headers', 'DISCONNECT\0'],
      ['binary noise', Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01])],
    ];
    it.each(cases)('refuses %s', (_name, input) => {
      expectProtocolError(() => decoder().push(input), 'ERROR_LIVE_FRAME_INVALID');
    });

    it('stays failed once it has failed', () => {
      const d = decoder();
      expect(() => d.push('NOPE\n\n\0')).toThrow(StompProtocolError);
      expect(() => d.push('SEND\ndestination:/a\n\n\0')).toThrow(StompProtocolError);
    });

    it('throws nothing but StompProtocolError on random bytes and mutated frames, and always returns', () => {
      const next = random(20240611);
      const valid = Buffer.concat([
        encodeFrame(frame('SUBSCRIBE', { id: '1', destination: '/topic/a' })),
        encodeFrame(frame('SEND', { destination: '/a', receipt: 'r' }, '{"k":"é"}')),
        Buffer.from('\n'),
      ]);
      const alphabet = Buffer.from('SENDCONT\\:\n\r\0ncr-length0123456789é');
      for (let round = 0; round < 3000; round += 1) {
        let input: Buffer;
        if (round % 2 === 0) {
          input = Buffer.alloc(1 + Math.floor(next() * 300));
          for (let i = 0; i < input.length; i += 1) {
            input[i] = next() < 0.5 ? alphabet[Math.floor(next() * alphabet.length)]! : Math.floor(next() * 256);
          }
        } else {
          input = Buffer.from(valid);
          for (let flips = 1 + Math.floor(next() * 3); flips > 0; flips -= 1) {
            input[Math.floor(next() * input.length)] = alphabet[Math.floor(next() * alphabet.length)]!;
          }
        }
        const d = decoder(256);
        try {
          let at = 0;
          while (at < input.length) {
            const size = 1 + Math.floor(next() * 40);
            d.push(input.subarray(at, at + size));
            at += size;
            expect(d.bufferedBytes).toBeLessThanOrEqual(256 + 40);
          }
        } catch (err) {
          if (!(err instanceof StompProtocolError)) throw err;
        }
      }
    });
  });
});
