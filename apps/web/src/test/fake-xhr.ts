/**
 * An XMLHttpRequest that sends through `fetch`, so that the fake API (fakeApi, which replaces
 * fetch) answers uploads too and records them with every other call. It reports the upload as two
 * progress events, half and all of the body, before the answer.
 */
export class FetchBackedXhr extends EventTarget {
  /** The size the progress events report; a FormData body has no length to read. */
  static readonly reportedTotal = 100;

  readonly upload = new EventTarget();
  status = 0;
  statusText = '';
  responseText = '';
  private method = 'GET';
  private url = '';
  private readonly headers = new Headers();
  private answerHeaders = new Headers();
  private readonly aborted = new AbortController();

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers.set(name, value);
  }

  getAllResponseHeaders(): string {
    return [...this.answerHeaders].map(([name, value]) => `${name}: ${value}\r\n`).join('');
  }

  abort(): void {
    this.aborted.abort();
  }

  send(body?: Document | XMLHttpRequestBodyInit | null): void {
    void this.run(body ?? null);
  }

  private async run(body: Document | XMLHttpRequestBodyInit | null): Promise<void> {
    const total = FetchBackedXhr.reportedTotal;
    for (const loaded of [total / 2, total]) {
      await Promise.resolve();
      this.upload.dispatchEvent(progress(loaded, total));
    }
    try {
      const response = await fetch(this.url, {
        method: this.method,
        headers: this.headers,
        body: body as BodyInit | null,
        signal: this.aborted.signal,
      });
      this.status = response.status;
      this.statusText = response.statusText;
      this.answerHeaders = response.headers;
      this.responseText = await response.text();
      this.dispatchEvent(new Event('load'));
    } catch {
      this.dispatchEvent(new Event(this.aborted.signal.aborted ? 'abort' : 'error'));
    }
  }
}

function progress(loaded: number, total: number): Event {
  return Object.assign(new Event('progress'), { lengthComputable: true, loaded, total });
}
