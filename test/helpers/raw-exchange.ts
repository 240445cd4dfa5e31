/** One raw HTTP exchange with a local server: no client decoding or pooling in between. */
import { request } from 'node:http';

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent, not decoded. */
  body: Buffer;
}

/** The status, every header as sent, and the body's bytes, on a connection of its own. */
export const rawExchange = (base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<Exchange> =>
  new Promise((resolve, reject) => {
    const { port } = new URL(base);
    request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
