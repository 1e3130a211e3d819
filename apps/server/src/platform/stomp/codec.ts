/**
 * STOMP 1.2 frames on bytes (https://stomp.github.io/stomp-specification-1.2.html): an encoder
 * and an incremental decoder. The decoder never holds more than one frame's worth of bytes (the
 * limit plus the chunk being read), so a client cannot grow a session's memory by sending a frame
 * that never ends.
 */

export type StompFrame = { command: string; headers: Record<string, string>; body: Buffer };

export type StompProtocolErrorKey = 'ERROR_LIVE_FRAME_INVALID' | 'ERROR_LIVE_FRAME_TOO_LARGE';

/** What a client may send. */
export const CLIENT_COMMANDS: ReadonlySet<string> = new Set([
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
]);
/** What a server sends (tests decode the server's output with these). */
export const SERVER_COMMANDS: ReadonlySet<string> = new Set(['CONNECTED', 'MESSAGE', 'RECEIPT', 'ERROR']);

export class StompProtocolError extends Error {
  constructor(
    readonly key: StompProtocolErrorKey,
    message: string,
  ) {
    super(message);
    this.name = 'StompProtocolError';
  }
}

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

/** The spec leaves CONNECT and CONNECTED unescaped, for 1.0 peers; STOMP is CONNECT's 1.2 alias. */
const isUnescaped = (command: string) => command === 'CONNECT' || command === 'CONNECTED' || command === 'STOMP';

const NEEDS_ESCAPE = /[\\\n\r:]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', ':': '\\c' };
const UNESCAPES: Record<string, string> = { '\\': '\\', n: '\n', r: '\r', c: ':' };

function escapeHeader(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(/[\\\n\r:]/g, (char) => ESCAPES[char]!) : text;
}

function unescapeHeader(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const decoded = UNESCAPES[text[i + 1] ?? ''];
    // An undefined escape (`\t`, a trailing `\`) is a protocol error in 1.2, not text to keep.
    if (decoded === undefined) throw invalid('undefined escape sequence in a header');
    out += decoded;
    i += 1;
  }
  return out;
}

const invalid = (message: string) => new StompProtocolError('ERROR_LIVE_FRAME_INVALID', message);
const tooLarge = (limit: number) =>
  new StompProtocolError('ERROR_LIVE_FRAME_TOO_LARGE', `a frame is larger than ${limit} bytes`);

export type EncodeOptions = {
  /** False for a STOMP 1.0 peer, which does not unescape headers. */
  escape?: boolean;
};

/**
 * One frame as bytes, NUL-terminated. `content-length` is always computed here (a caller's own is
 * dropped) so that a body holding NUL bytes survives.
 */
export function encodeFrame(frame: StompFrame, options: EncodeOptions = {}): Buffer {
  const escaping = (options.escape ?? true) && !isUnescaped(frame.command);
  let head = `${frame.command}\n`;
  for (const [name, value] of Object.entries(frame.headers)) {
    if (name === 'content-length') continue;
    if (escaping) {
      head += `${escapeHeader(name)}:${escapeHeader(value)}\n`;
    } else {
      // Unescaped, an EOL would end the header early and forge the next one.
      if (/[\n\r]/.test(name + value) || name.includes(':')) {
        throw new TypeError(`header ${JSON.stringify(name)} cannot be sent unescaped`);
      }
      head += `${name}:${value}\n`;
    }
  }
  if (frame.body.length > 0) head += `content-length:${frame.body.length}\n`;
  head += '\n';
  const headBytes = Buffer.byteLength(head);
  const out = Buffer.allocUnsafe(headBytes + frame.body.length + 1);
  out.write(head, 0);
  frame.body.copy(out, headBytes);
  out[out.length - 1] = NUL;
  return out;
}

export type FrameDecoderOptions = {
  maxFrameBytes: number;
  /** The commands accepted; default: a client's. */
  commands?: ReadonlySet<string>;
};

const EMPTY = Buffer.alloc(0);
/** A drained buffer larger than this is released: idle sessions should hold nothing. */
const KEEP_BYTES = 4096;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Turns a byte stream into frames and heart-beats (bare EOLs between frames). Chunks may split a
 * frame anywhere, even inside a UTF-8 character, or hold several frames. After a
 * StompProtocolError the decoder stays failed: the connection is to be closed.
 *
 * `maxFrameBytes` bounds the command, headers and body (the blank line is counted, the final NUL
 * is not); it is enforced while bytes arrive, and from `content-length` before the body does.
 */
export class FrameDecoder {
  /** False for a STOMP 1.0 peer, whose header values are taken as they come. */
  escaping = true;
  private readonly maxFrameBytes: number;
  private readonly commands: ReadonlySet<string>;
  /** The bytes not yet consumed, at [0, length): a partial frame, or a lone CR between frames. */
  private pending: Buffer = EMPTY;
  private length = 0;
  private phase: 'idle' | 'head' | 'body' = 'idle';
  /** head: where the first incomplete line starts; body without length: bytes already seen to hold no NUL. */
  private scanned = 0;
  private command = '';
  private headers: Record<string, string> = {};
  private headBytes = 0;
  private contentLength = -1;
  private failure: StompProtocolError | undefined;

  constructor(options: FrameDecoderOptions) {
    this.maxFrameBytes = options.maxFrameBytes;
    this.commands = options.commands ?? CLIENT_COMMANDS;
  }

  /** The bytes held for an incomplete frame. */
  get bufferedBytes(): number {
    return this.length;
  }

  push(chunk: Buffer | string): Array<StompFrame | 'heartbeat'> {
    if (this.failure) throw this.failure;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    // Most chunks are whole frames: read them in place and copy only what is left over.
    const buffered = this.length > 0;
    let data = bytes;
    if (buffered) {
      this.append(bytes);
      data = this.pending.subarray(0, this.length);
    }
    const out: Array<StompFrame | 'heartbeat'> = [];
    let consumed: number;
    try {
      consumed = this.parse(data, out);
    } catch (err) {
      if (err instanceof StompProtocolError) this.failure = err;
      this.pending = EMPTY;
      this.length = 0;
      throw err;
    }
    this.keep(data, consumed, buffered);
    return out;
  }

  private append(bytes: Buffer) {
    const needed = this.length + bytes.length;
    if (needed > this.pending.length) {
      const grown = Buffer.allocUnsafeSlow(
        Math.max(needed, Math.min(this.pending.length * 2, this.maxFrameBytes + 1024)),
      );
      this.pending.copy(grown, 0, 0, this.length);
      this.pending = grown;
    }
    bytes.copy(this.pending, this.length);
    this.length = needed;
  }

  /** Keeps the unconsumed tail of `data`, which is either `pending` itself or a fresh chunk. */
  private keep(data: Buffer, consumed: number, buffered: boolean) {
    const rest = data.length - consumed;
    if (rest === 0) {
      this.length = 0;
      if (this.pending.length > KEEP_BYTES) this.pending = EMPTY;
    } else if (buffered) {
      this.pending.copyWithin(0, consumed, this.length);
      this.length = rest;
    } else {
      this.pending = Buffer.allocUnsafeSlow(Math.max(rest, 256));
      data.copy(this.pending, 0, consumed);
      this.length = rest;
    }
  }

  /** Reads what `data` holds from offset 0; returns how many bytes are done with. */
  private parse(data: Buffer, out: Array<StompFrame | 'heartbeat'>): number {
    let pos = 0;
    for (;;) {
      if (this.phase === 'idle') {
        if (pos >= data.length) return pos;
        const byte = data[pos]!;
        if (byte === LF) {
          out.push('heartbeat');
          pos += 1;
          continue;
        }
        if (byte === CR) {
          if (pos + 1 >= data.length) return pos;
          if (data[pos + 1] !== LF) throw invalid('CR not followed by LF');
          out.push('heartbeat');
          pos += 2;
          continue;
        }
        this.phase = 'head';
        this.scanned = 0;
      }

      if (this.phase === 'head') {
        const resumeAt = pos + this.scanned;
        let lineStart = resumeAt;
        let end = -1;
        for (;;) {
          const lf = data.indexOf(LF, lineStart);
          if (lf === -1) break;
          const blank = lf === lineStart || (lf === lineStart + 1 && data[lineStart] === CR);
          if (blank && lineStart > pos) {
            end = lf + 1;
            break;
          }
          lineStart = lf + 1;
        }
        if (end === -1) {
          // A NUL before the blank line: a frame without its headers' end, which would otherwise wait forever.
          if (data.indexOf(NUL, resumeAt) !== -1) throw invalid('a NUL before the end of the headers');
          if (data.length - pos > this.maxFrameBytes) throw tooLarge(this.maxFrameBytes);
          this.scanned = lineStart - pos;
          return pos;
        }
        this.headBytes = end - pos;
        if (this.headBytes > this.maxFrameBytes) throw tooLarge(this.maxFrameBytes);
        this.readHead(data.subarray(pos, end));
        pos = end;
        this.phase = 'body';
        this.scanned = 0;
      }

      // body
      if (this.contentLength >= 0) {
        if (data.length - pos < this.contentLength + 1) return pos;
        if (data[pos + this.contentLength] !== NUL) throw invalid('the body is longer than its content-length');
        this.emit(out, data, pos, pos + this.contentLength);
        pos += this.contentLength + 1;
      } else {
        const nul = data.indexOf(NUL, pos + this.scanned);
        if (nul === -1) {
          this.scanned = data.length - pos;
          if (this.headBytes + this.scanned > this.maxFrameBytes) throw tooLarge(this.maxFrameBytes);
          return pos;
        }
        if (this.headBytes + (nul - pos) > this.maxFrameBytes) throw tooLarge(this.maxFrameBytes);
        this.emit(out, data, pos, nul);
        pos = nul + 1;
      }
      this.phase = 'idle';
    }
  }

  private emit(out: Array<StompFrame | 'heartbeat'>, data: Buffer, from: number, to: number) {
    // A copy: `data` is a network chunk or this decoder's own buffer, both reused or large.
    const body = to > from ? Buffer.from(data.subarray(from, to)) : EMPTY;
    out.push({ command: this.command, headers: this.headers, body });
    this.headers = {};
  }

  /** Command and headers, up to and including the blank line. */
  private readHead(bytes: Buffer) {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw invalid('the command or a header is not UTF-8');
    }
    if (text.includes('\0')) throw invalid('a NUL before the end of the headers');
    const lines = text.split('\n');
    // The split leaves the blank line and what follows its LF: two entries to drop.
    lines.length -= 2;
    for (let i = 0; i < lines.length; i += 1) {
      let line = lines[i]!;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.includes('\r')) throw invalid('a CR inside a line');
      lines[i] = line;
    }
    const command = lines[0] ?? '';
    if (!this.commands.has(command)) throw invalid('unknown command');
    const escaped = this.escaping && !isUnescaped(command);
    // No prototype: a header named `__proto__` or `constructor` is just a header.
    const headers: Record<string, string> = Object.create(null);
    for (let i = 1; i < lines.length; i += 1) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) throw invalid('a header without a name or a colon');
      const rawName = line.slice(0, colon);
      const rawValue = line.slice(colon + 1);
      const name = escaped ? unescapeHeader(rawName) : rawName;
      const value = escaped ? unescapeHeader(rawValue) : rawValue;
      // Repeated headers: the first one counts (1.2).
      if (!(name in headers)) headers[name] = value;
    }
    this.command = command;
    this.headers = headers;
    this.contentLength = -1;
    const length = headers['content-length'];
    if (length !== undefined) {
      if (!/^[0-9]+$/.test(length)) throw invalid('content-length is not a number');
      // Ten digits already exceed any sane limit: refuse before the number loses precision.
      if (length.length > 10 || this.headBytes + Number(length) > this.maxFrameBytes) {
        throw tooLarge(this.maxFrameBytes);
      }
      this.contentLength = Number(length);
    }
  }
}
