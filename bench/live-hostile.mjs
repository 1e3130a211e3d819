// @ts-check
// Hostile clients for `bench/live-latency.mjs --hostile 1` (docs/live-channel.md, Transport): while
// the agents and the console run, this process keeps three kinds of misbehaving consoles at the
// server, each reconnecting as soon as it is closed:
// - holders: CONNECT, then half a SEND frame, held open (closed by the 10 s partial-frame bound);
// - a flooder: SENDs as fast as its socket takes them (closed by the frame rate);
// - a subscriber: 10,000 SUBSCRIBEs (closed at the 100-subscription cap).
// Each closing ERROR's key is counted; `stop()` answers the counts.
import WebSocket from 'ws';

const NUL = '\0';

/** @param {string} command @param {Record<string, string>} headers @param {string} [body] */
const frame = (command, headers, body = '') =>
  `${command}\n${Object.entries(headers)
    .map(([name, value]) => `${name}:${value}`)
    .join('\n')}\n\n${body}${NUL}`;

/**
 * @param {{ url: string, headers: Record<string, string>, tenantId: string, holders?: number }} options
 */
export function startHostile({ url, headers, tenantId, holders = 20 }) {
  /** @type {Record<string, number>} */
  const closes = {};
  let stopped = false;
  /** @type {Set<WebSocket>} */
  const open = new Set();

  /**
   * One hostile connection of `kind`, again and again: `act` runs once CONNECTED arrived.
   * @param {string} kind @param {(ws: WebSocket) => void} act
   */
  function keep(kind, act) {
    if (stopped) return;
    const ws = new WebSocket(url, ['v12.stomp']);
    open.add(ws);
    let key = 'closed without ERROR';
    let connected = false;
    ws.on('open', () => ws.send(frame('CONNECT', { 'accept-version': '1.2', 'heart-beat': '0,0', ...headers })));
    ws.on('message', (data) => {
      const text = data.toString();
      if (!connected && text.startsWith('CONNECTED')) {
        connected = true;
        act(ws);
      }
      const match = /^ERROR\n(?:[^\n]*\n)*?message:([^\n]*)/.exec(text);
      if (match) key = match[1] ?? key;
    });
    ws.on('error', () => {});
    ws.on('close', () => {
      open.delete(ws);
      closes[`${kind}: ${key}`] = (closes[`${kind}: ${key}`] ?? 0) + 1;
      // Not at once: a refused client that reconnects in a tight loop measures the handshake.
      setTimeout(() => keep(kind, act), 100);
    });
  }

  for (let i = 0; i < holders; i += 1)
    keep('half frame held', (ws) => ws.send(`SEND\ndestination:/request/active-agents\ncontent-length:100\n\n{"par`));

  keep('SEND flood', (ws) => {
    const batch = frame('SEND', { destination: '/direct/agent-execute-command' }, '{}').repeat(500);
    const pump = () => {
      if (ws.readyState !== WebSocket.OPEN) return;
      // As fast as the socket takes them, never more than 1 MiB waiting here.
      if (ws.bufferedAmount < 1 << 20) ws.send(batch);
      setImmediate(pump);
    };
    pump();
  });

  keep('10,000 SUBSCRIBEs', (ws) => {
    let n = 0;
    const pump = () => {
      if (ws.readyState !== WebSocket.OPEN || n >= 10_000) return;
      let batch = '';
      for (const end = n + 500; n < end; n += 1)
        batch += frame('SUBSCRIBE', { id: `s${n}`, destination: `/topic/connect/${tenantId}` });
      ws.send(batch);
      setImmediate(pump);
    };
    pump();
  });

  return {
    stop() {
      stopped = true;
      for (const ws of open) ws.terminate();
      return closes;
    },
  };
}
