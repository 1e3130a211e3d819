import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeRax } from '@opsdeck/rax/write';
import { type WebSocket, WebSocketServer } from 'ws';

/** A STOMP frame as the fake server saw it. */
export interface Frame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A stand-in for the server's live channel, just enough STOMP 1.2 to watch an agent from outside:
 * it records every frame, answers CONNECT (or refuses it), SUBSCRIBE to the workflow list, and
 * receipts, and serves workflow files. The protocol tests against the real server belong to the
 * server's suite.
 */
export async function startFakeServer(options: { refuse?: string; receipts?: boolean } = {}) {
  const frames: Frame[] = [];
  const sockets = new Set<WebSocket>();
  const downloads: Record<string, string | undefined>[] = [];
  let receipts = options.receipts ?? true;
  /** Answers each SEND on a destination with a refusal (its key) instead of a receipt, while it answers one. */
  let refuseSend: ((destination: string) => string | undefined) | undefined;
  const files = new Map<number, Uint8Array>([
    [
      1,
      await writeRax({
        name: 'Quick',
        steps: [
          { activity: 'open-browser', name: 'Open', expectedSeconds: 1 },
          { activity: 'read-excel-range', name: 'Read', expectedSeconds: 1 },
        ],
      }),
    ],
    [2, await writeRax({ name: 'Long', steps: [{ activity: 'sap-logon', name: 'Log on', expectedSeconds: 3600 }] })],
  ]);
  const workflows = [
    { id: 1, name: 'Quick', lastExecution: null },
    { id: 2, name: 'Long', lastExecution: null },
  ];

  const http: Server = createServer((request, response) => {
    const match = /^\/api\/agent\/workflow\/(\d+)\/file$/.exec(request.url ?? '');
    const file = match && files.get(Number(match[1]));
    downloads.push({
      appKey: request.headers['x-app-key'] as string | undefined,
      key: request.headers['license-key'] as string | undefined,
    });
    if (!file) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"key":"ERROR_WORKFLOW_NOT_EXIST"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(file));
  });
  const wss = new WebSocketServer({ server: http, path: '/api/live', handleProtocols: () => 'v12.stomp' });
  const subscriptions = new Map<WebSocket, Map<string, string>>();

  const send = (socket: WebSocket, command: string, headers: Record<string, string>, body = '') => {
    const head = Object.entries(headers).map(([name, value]) => `${name}:${value}\n`);
    socket.send(`${command}\n${head.join('')}\n${body}\0`);
  };
  const message = (socket: WebSocket, destination: string, body: unknown) => {
    const id = subscriptions.get(socket)?.get(destination);
    if (id === undefined) return false;
    send(
      socket,
      'MESSAGE',
      { destination, subscription: id, 'message-id': String(Math.random()), 'content-type': 'application/json' },
      JSON.stringify(body),
    );
    return true;
  };

  wss.on('connection', (socket) => {
    sockets.add(socket);
    subscriptions.set(socket, new Map());
    socket.on('close', () => sockets.delete(socket));
    let buffer = '';
    socket.on('message', (data) => {
      buffer += data.toString();
      let end = buffer.indexOf('\0');
      while (end >= 0) {
        const raw = buffer.slice(0, end).replace(/^\n+/, '');
        buffer = buffer.slice(end + 1);
        end = buffer.indexOf('\0');
        const split = raw.indexOf('\n\n');
        const [command = '', ...lines] = raw.slice(0, split).split('\n');
        const headers = Object.fromEntries(
          lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
        );
        const frame = { command, headers, body: raw.slice(split + 2) };
        frames.push(frame);
        if (command === 'CONNECT') {
          if (options.refuse) {
            send(socket, 'ERROR', { message: options.refuse });
            socket.close();
          } else send(socket, 'CONNECTED', { version: '1.2', 'heart-beat': '0,0' });
        } else if (command === 'SUBSCRIBE') {
          subscriptions.get(socket)!.set(headers.destination!, headers.id!);
          if (headers.destination === '/user/queue/workflows') {
            message(socket, headers.destination, { added: workflows, updated: [], removed: [] });
          }
        } else if (command === 'DISCONNECT') {
          if (headers.receipt) send(socket, 'RECEIPT', { 'receipt-id': headers.receipt });
          socket.close();
        } else if (command === 'SEND') {
          const refusal = refuseSend?.(headers.destination ?? '');
          if (refusal) {
            message(socket, '/user/topic/errors', { destination: headers.destination, key: refusal, message: refusal });
          } else if (headers.receipt && receipts) send(socket, 'RECEIPT', { 'receipt-id': headers.receipt });
        }
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return {
    url,
    frames,
    downloads,
    sent: (destination: string) =>
      frames
        .filter((frame) => frame.command === 'SEND' && frame.headers.destination === destination)
        .map((frame) => JSON.parse(frame.body) as Record<string, unknown>),
    command: (body: unknown) => [...sockets].some((socket) => message(socket, '/user/queue/commands', body)),
    setReceipts: (on: boolean) => {
      receipts = on;
    },
    /** Refuses SENDs as the server does (a message on /user/topic/errors, no receipt) with the key this answers. */
    setRefusal: (refusal: ((destination: string) => string | undefined) | undefined) => {
      refuseSend = refusal;
    },
    dropConnections: () => {
      for (const socket of sockets) socket.terminate();
    },
    close: async () => {
      for (const socket of sockets) socket.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
