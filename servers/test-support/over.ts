import { request as httpsRequest, type RequestOptions } from 'node:https';
import { connect as h2Connect, constants } from 'node:http2';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import type { ServerTiming } from '../server-timing.js';
import { parseServerTiming } from './parse-server-timing.js';

// Test helpers: one GET over https (HTTP/1.1) or h2 / h2c with node's own clients, so a test sees what
// was negotiated (ALPN) and whether the certificate verified, beside the answer and its Server-Timing.

export interface OverAnswer {
  status: number;
  text: string;
  timing: ServerTiming | undefined;
  /** 'h2', 'http/1.1', or false when nothing was negotiated by ALPN */
  alpn: string | false;
  /** the leaf certificate the server showed (PEM-less fingerprint), over TLS */
  fingerprint: string | undefined;
}

/** GET over TLS with HTTP/1.1 (ALPN offers http/1.1 only). `ca` absent: the system's CAs. */
export function getHttps(url: string, ca?: string): Promise<OverAnswer> {
  return new Promise((resolve, reject) => {
    const options: RequestOptions & ConnectionOptions = { ca, ALPNProtocols: ['http/1.1'], agent: false };
    const req = httpsRequest(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const socket = res.socket as TLSSocket;
        const header = res.headers['server-timing'];
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), timing: parseServerTiming(typeof header === 'string' ? header : undefined), alpn: socket.alpnProtocol ?? false, fingerprint: socket.getPeerCertificate().fingerprint256 });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** GET over h2 (https:// URL: TLS and ALPN) or h2c (http:// URL: prior knowledge). */
export function getH2(url: string, ca?: string): Promise<OverAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const session = h2Connect(target.origin, { ca });
    session.on('error', reject);
    const stream = session.request({ [constants.HTTP2_HEADER_PATH]: target.pathname + target.search });
    let status = 0;
    let timing: ServerTiming | undefined;
    const chunks: Buffer[] = [];
    stream.on('response', (headers) => {
      status = Number(headers[constants.HTTP2_HEADER_STATUS]);
      const header = headers['server-timing'];
      timing = parseServerTiming(typeof header === 'string' ? header : undefined);
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('error', reject);
    stream.on('end', () => {
      const socket = session.socket as TLSSocket;
      const alpn = session.alpnProtocol ?? false;
      const fingerprint = 'getPeerCertificate' in socket ? socket.getPeerCertificate().fingerprint256 : undefined;
      session.close();
      resolve({ status, text: Buffer.concat(chunks).toString(), timing, alpn, fingerprint });
    });
    stream.end();
  });
}
