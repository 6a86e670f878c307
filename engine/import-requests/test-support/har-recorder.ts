import { writeFileSync } from 'node:fs';

// A HAR of a real session, recorded the way a browser's developer tools write one (HAR 1.2): each
// request is really sent (fetch) and its entry keeps the request as a browser would have sent it
// (its own headers, the browser's noise headers, Host) and the response as it came back. Tests make
// a session against a real service with it, then import the file.

/** What Chromium adds to a fetch() from a page: the importer leaves these out (and says so). */
export const BROWSER_HEADERS: readonly { name: string; value: string }[] = [
  { name: 'User-Agent', value: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36' },
  { name: 'Accept-Language', value: 'en-US,en;q=0.9' },
  { name: 'Accept-Encoding', value: 'gzip, deflate, br' },
  { name: 'sec-ch-ua', value: '"Chromium";v="126", "Not.A/Brand";v="24"' },
  { name: 'sec-ch-ua-mobile', value: '?0' },
  { name: 'Sec-Fetch-Site', value: 'same-origin' },
  { name: 'Sec-Fetch-Mode', value: 'cors' },
  { name: 'Sec-Fetch-Dest', value: 'empty' },
];

export interface Sent {
  status: number;
  text: string;
}

export class HarRecorder {
  private readonly entries: unknown[] = [];

  /** Sends the request, records it with its response, and returns the response. */
  async send(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Sent> {
    const started = new Date();
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }), signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    const requestHeaders = [{ name: 'Host', value: new URL(url).host }, ...Object.entries(headers).map(([name, value]) => ({ name, value })), ...BROWSER_HEADERS];
    const contentType = res.headers.get('content-type') ?? '';
    const responseHeaders: { name: string; value: string }[] = [];
    res.headers.forEach((value, name) => responseHeaders.push({ name, value }));
    this.entries.push({
      startedDateTime: started.toISOString(),
      time: Date.now() - started.getTime(),
      _resourceType: 'fetch',
      request: {
        method,
        url,
        httpVersion: 'HTTP/1.1',
        headers: requestHeaders,
        queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value })),
        cookies: [],
        headersSize: -1,
        bodySize: body === undefined ? 0 : Buffer.byteLength(body),
        ...(body === undefined ? {} : { postData: { mimeType: headers['content-type'] ?? headers['Content-Type'] ?? 'text/plain', text: body } }),
      },
      response: {
        status: res.status,
        statusText: res.statusText,
        httpVersion: 'HTTP/1.1',
        headers: responseHeaders,
        cookies: [],
        content: { size: Buffer.byteLength(text), mimeType: contentType, text },
        redirectURL: '',
        headersSize: -1,
        bodySize: Buffer.byteLength(text),
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
    });
    return { status: res.status, text };
  }

  har(): { log: { version: string; creator: { name: string; version: string }; entries: unknown[] } } {
    return { log: { version: '1.2', creator: { name: 'loadscope-test', version: '1' }, entries: this.entries } };
  }

  write(file: string): void {
    writeFileSync(file, JSON.stringify(this.har(), null, 2));
  }
}
