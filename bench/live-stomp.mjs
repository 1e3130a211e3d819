// @ts-check
// A minimal STOMP 1.2 client over `ws` for the live-channel benchmarks: the same code drives
// Opsdeck's /api/live and RabbitMQ's Web-STOMP. It does what 10,000 simulated agents need and no
// more (CONNECT, SUBSCRIBE, SEND, heart-beats, MESSAGE/RECEIPT/ERROR parsing) and costs far less
// per connection than @stomp/stompjs (one shared heart-beat timer for every connection of the
// process, no per-frame objects beyond the headers of a MESSAGE).
import WebSocket from 'ws';

const NUL = 0;
const LF = 0x0a;
const CR = 0x0d;
const HEARTBEAT = '\n';

/** Every open connection of this process, for the shared heart-beat timer. */
const open = new Set();
/** @type {NodeJS.Timeout | undefined} */
let ticker;

function tick() {
  const now = Date.now();
  for (const connection of open) connection.beat(now);
}

const UNESCAPES = /** @type {Record<string, string>} */ ({ '\\': '\\', n: '\n', r: '\r', c: ':' });
/** @param {string} text */
const unescapeHeader = (text) => (text.includes('\\') ? text.replace(/\\(.)/g, (_, c) => UNESCAPES[c] ?? c) : text);
/** @param {string} text */
const escapeHeader = (text) =>
  text.replace(/[\\\n\r:]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', ':': '\\c' })[c] ?? c);

/**
 * @typedef {{ command: string, headers: Record<string, string>, body: Buffer }} Frame
 * @typedef {{
 *   onMessage?: (destination: string, body: Buffer, headers: Record<string, string>) => void,
 *   onError?: (message: string, body: string) => void,
 *   onClose?: (code: number) => void,
 *   heartBeat?: [number, number],
 *   connectTimeoutMs?: number,
 * }} ConnectOptions
 */

export class StompConnection {
  /**
   * @param {WebSocket} ws
   * @param {ConnectOptions} options
   */
  constructor(ws, options) {
    this.ws = ws;
    this.options = options;
    /** @type {Map<string, string>} subscription id → destination */
    this.subscriptions = new Map();
    this.nextId = 0;
    this.sendEvery = 0;
    this.lastSent = Date.now();
    /** @type {Buffer | undefined} */
    this.rest = undefined;
    this.closed = false;
    /** @type {Map<string, () => void>} */
    this.receipts = new Map();
  }

  /** @param {number} now */
  beat(now) {
    if (this.sendEvery > 0 && now - this.lastSent >= this.sendEvery && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(HEARTBEAT);
      this.lastSent = now;
    }
  }

  /**
   * @param {string} command
   * @param {Record<string, string>} headers
   * @param {string | Buffer} [body]
   */
  write(command, headers, body = '') {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    let head = `${command}\n`;
    for (const name in headers) head += `${escapeHeader(name)}:${escapeHeader(headers[name] ?? '')}\n`;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (bytes.length > 0) head += `content-length:${bytes.length}\n`;
    this.ws.send(Buffer.concat([Buffer.from(`${head}\n`), bytes, Buffer.from([NUL])]), { binary: false });
    this.lastSent = Date.now();
    return true;
  }

  /** @param {string} destination @param {Record<string, string>} [headers] */
  subscribe(destination, headers = {}) {
    const id = `sub-${this.nextId++}`;
    this.subscriptions.set(id, destination);
    this.write('SUBSCRIBE', { id, destination, ack: 'auto', ...headers });
    return id;
  }

  /**
   * @param {string} destination
   * @param {string | Buffer} body
   * @param {Record<string, string>} [headers]
   */
  send(destination, body, headers = {}) {
    return this.write('SEND', { destination, 'content-type': 'application/json', ...headers }, body);
  }

  /** A SEND with a receipt: resolves when the RECEIPT arrives. */
  /** @param {string} destination @param {string | Buffer} body */
  sendWithReceipt(destination, body) {
    const receipt = `r-${this.nextId++}`;
    return new Promise((resolve) => {
      this.receipts.set(receipt, () => resolve(undefined));
      this.send(destination, body, { receipt });
    });
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    open.delete(this);
    try {
      this.write('DISCONNECT', {});
    } catch {
      // gone already
    }
    this.ws.close();
  }

  terminate() {
    this.closed = true;
    open.delete(this);
    this.ws.terminate();
  }

  /**
   * Splits what arrived into frames (a WebSocket message may hold several, and heart-beat EOLs).
   * @param {Buffer} data
   * @param {(frame: Frame) => void} onFrame
   */
  parse(data, onFrame) {
    const buffer = this.rest ? Buffer.concat([this.rest, data]) : data;
    this.rest = undefined;
    let position = 0;
    while (position < buffer.length) {
      // Heart-beats and the EOLs between frames.
      while (position < buffer.length && (buffer[position] === LF || buffer[position] === CR)) position += 1;
      if (position >= buffer.length) break;
      const headEnd = buffer.indexOf('\n\n', position);
      if (headEnd === -1) break;
      const lines = buffer.toString('utf8', position, headEnd).split('\n');
      const command = (lines[0] ?? '').replace(/\r$/, '');
      /** @type {Record<string, string>} */
      const headers = {};
      for (let i = 1; i < lines.length; i += 1) {
        const line = (lines[i] ?? '').replace(/\r$/, '');
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = command === 'CONNECTED' ? line.slice(0, colon) : unescapeHeader(line.slice(0, colon));
        if (!(name in headers))
          headers[name] = command === 'CONNECTED' ? line.slice(colon + 1) : unescapeHeader(line.slice(colon + 1));
      }
      const start = headEnd + 2;
      let end;
      const length = headers['content-length'];
      if (length !== undefined) {
        end = start + Number(length);
        if (end >= buffer.length) break;
      } else {
        end = buffer.indexOf(NUL, start);
        if (end === -1) break;
      }
      onFrame({ command, headers, body: buffer.subarray(start, end) });
      position = end + 1;
    }
    if (position < buffer.length) this.rest = Buffer.from(buffer.subarray(position));
  }
}

/**
 * Opens a WebSocket to `url`, sends CONNECT with `headers`, resolves with the connection once
 * CONNECTED arrives; rejects with the ERROR frame's `message` header (an Opsdeck error key), or
 * with why the socket closed or failed.
 * @param {string} url
 * @param {Record<string, string>} headers CONNECT's headers (login, passcode, host or Opsdeck's)
 * @param {ConnectOptions} [options]
 * @returns {Promise<StompConnection>}
 */
export function connectStomp(url, headers, options = {}) {
  const [canSend, wantsToReceive] = options.heartBeat ?? [10_000, 10_000];
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['v12.stomp'], { perMessageDeflate: false });
    const connection = new StompConnection(ws, options);
    let connected = false;
    const timer = setTimeout(() => {
      if (!connected) {
        ws.terminate();
        reject(new Error('connect timeout'));
      }
    }, options.connectTimeoutMs ?? 30_000);
    ws.on('open', () => {
      let head = 'CONNECT\naccept-version:1.2\n';
      head += `heart-beat:${canSend},${wantsToReceive}\n`;
      for (const name in headers) head += `${name}:${headers[name]}\n`;
      ws.send(`${head}\n\0`);
    });
    ws.on('message', (data) => {
      connection.parse(/** @type {Buffer} */ (data), (frame) => {
        switch (frame.command) {
          case 'MESSAGE':
            options.onMessage?.(frame.headers.destination ?? '', frame.body, frame.headers);
            return;
          case 'RECEIPT': {
            const id = frame.headers['receipt-id'] ?? '';
            const done = connection.receipts.get(id);
            connection.receipts.delete(id);
            done?.();
            return;
          }
          case 'CONNECTED': {
            connected = true;
            clearTimeout(timer);
            // Spec, Heart-beating: we send at the slower of what we can and what the server wants.
            const [, serverWants] = (frame.headers['heart-beat'] ?? '0,0').split(',').map(Number);
            connection.sendEvery = canSend && serverWants ? Math.max(canSend, serverWants) : 0;
            open.add(connection);
            if (!ticker) {
              ticker = setInterval(tick, 1000);
              ticker.unref();
            }
            resolve(connection);
            return;
          }
          case 'ERROR': {
            const message = frame.headers.message ?? 'ERROR';
            if (!connected) {
              clearTimeout(timer);
              reject(Object.assign(new Error(message), { key: message }));
            } else options.onError?.(message, frame.body.toString());
            return;
          }
        }
      });
    });
    ws.on('error', (error) => {
      if (!connected) {
        clearTimeout(timer);
        reject(error);
      }
    });
    ws.on('close', (code) => {
      open.delete(connection);
      connection.closed = true;
      if (!connected) {
        clearTimeout(timer);
        reject(new Error(`closed (${code}) before CONNECTED`));
      } else options.onClose?.(code);
    });
  });
}

/**
 * Runs `work(i)` for i in [0, count) with at most `concurrency` at a time; resolves when all
 * settled, with how many failed and the reasons counted.
 * @param {number} count
 * @param {number} concurrency
 * @param {(i: number) => Promise<unknown>} work
 */
export async function pool(count, concurrency, work) {
  let next = 0;
  let failed = 0;
  /** @type {Record<string, number>} */
  const reasons = {};
  const worker = async () => {
    while (next < count) {
      const i = next++;
      try {
        await work(i);
      } catch (error) {
        failed += 1;
        const reason = /** @type {Error} */ (error).message ?? String(error);
        reasons[reason] = (reasons[reason] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { failed, reasons };
}

/**
 * The CONNECT headers of a benchmark's agent (docs/live-channel.md): its key, its machine and a
 * hostname made from its index.
 * @param {string} secret the installation's agent secret
 * @param {{ key: string, mac: string, index: number }} agent
 */
export const agentConnectHeaders = (secret, agent) => ({
  'X-App-Key': 'opsdeck-agent',
  'X-App-Secret': secret,
  'license-key': agent.key,
  'mac-address': agent.mac,
  hostname: `WS-${String(agent.index).padStart(5, '0')}`,
  platform: 'agent',
});

/**
 * Something awaited with a time limit: `promise` resolves when `settle()` is called, and rejects
 * with "no <what> within N s" if that does not happen in `timeoutMs`.
 * @param {string} what
 */
export function awaited(what, timeoutMs = 30_000) {
  /** @type {() => void} */
  let settle = () => {};
  const promise = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs / 1000} s`)), timeoutMs);
    settle = () => {
      clearTimeout(timer);
      resolve(undefined);
    };
  });
  return { promise, settle: () => settle() };
}
