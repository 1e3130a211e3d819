import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signedIn } from '../../test/builders';
import { renderApp } from '../../test/render';

/** A socket that never opens: enough to see what the real live client asks for. */
class PendingSocket {
  static made: PendingSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: (() => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    PendingSocket.made.push(this);
  }
  send() {}
  close() {
    this.readyState = 3;
    this.onclose?.({ code: 1000 });
  }
}

afterEach(() => {
  PendingSocket.made = [];
});

describe('events route', { timeout: 60_000 }, () => {
  it('opens the page at /dashboard/workflow/events and connects the live channel of this host', async () => {
    vi.stubGlobal('WebSocket', PendingSocket);
    signedIn(['ACCESS_WORKFLOW_EVENTS_TAB', 'VIEW_WORKFLOW_EVENTS']);
    const { unmount } = renderApp('/dashboard/workflow/events');
    expect(await screen.findByRole('heading', { name: 'Workflow Events' }, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Connecting…');
    // The page's own connection, beside the shell's for the notification bell.
    await vi.waitFor(() => expect(PendingSocket.made).toHaveLength(2));
    for (const socket of PendingSocket.made) {
      expect(socket.url).toBe(`ws://${window.location.host}/api/live`);
      expect(socket.protocols).toContain('v12.stomp');
    }
    unmount();
  });
});
