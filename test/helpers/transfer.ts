/**
 * What a page has taken over the network, as Chromium counts it: the DevTools protocol's
 * `encodedDataLength` of each response ("Total number of bytes received for this request",
 * Network.loadingFinished), which is the bytes as they came, compressed, status line and headers
 * included. So a budget ("a first visit transfers at most 300 KB before today's level shows")
 * reads what a phone would download from a deployment that compresses as the local server does.
 */
import type { CDPSession, Page } from 'playwright-core';

export interface TransferredResponse {
  url: string;
  /** Bytes received for it: all of them once it finished, those so far while it loads. */
  bytes: number;
  finished: boolean;
}

export interface TransferMeter {
  /** Every http(s) response the page has received bytes of since the meter started, in the order asked. */
  responses(): Promise<TransferredResponse[]>;
  /** The sum of their bytes. */
  total(): Promise<number>;
  /** Stops counting; the counts stay readable. */
  stop(): Promise<void>;
}

interface Counted {
  url: string;
  bytes: number;
  finished: boolean;
}

/**
 * Counts the bytes of every response the page receives from now on (start it before `goto`).
 * Redirects count as responses of their own; a response from the browser's cache counts what it
 * took from the network, nothing. Reads are exact to the moment they are made: each first waits
 * for the protocol's events sent before it.
 */
export async function meterTransfer(page: Page): Promise<TransferMeter> {
  const session: CDPSession = await page.context().newCDPSession(page);
  const byId = new Map<string, Counted[]>();
  const current = (id: string) => byId.get(id)?.at(-1);
  session.on('Network.requestWillBeSent', (e) => {
    const chain = byId.get(e.requestId) ?? [];
    // A redirect reuses its request's id: the answer that redirected has finished, with its own bytes.
    const previous = chain.at(-1);
    if (previous && e.redirectResponse) Object.assign(previous, { bytes: e.redirectResponse.encodedDataLength, finished: true });
    if (/^https?:/.test(e.request.url)) chain.push({ url: e.request.url, bytes: 0, finished: false });
    byId.set(e.requestId, chain);
  });
  // While a response loads, its bytes so far; the headers' arrive with responseReceived.
  session.on('Network.responseReceived', (e) => {
    const c = current(e.requestId);
    if (c && !c.finished) c.bytes = Math.max(c.bytes, e.response.encodedDataLength);
  });
  session.on('Network.dataReceived', (e) => {
    const c = current(e.requestId);
    if (c && !c.finished) c.bytes += e.encodedDataLength;
  });
  session.on('Network.loadingFinished', (e) => {
    const c = current(e.requestId);
    if (c) Object.assign(c, { bytes: e.encodedDataLength, finished: true });
  });
  session.on('Network.loadingFailed', (e) => {
    const c = current(e.requestId);
    if (c) c.finished = true;
  });
  await session.send('Network.enable');
  let stopped = false;
  // A command's answer comes after every event the browser sent before it, on this session.
  const settle = async () => {
    if (!stopped) await session.send('Runtime.evaluate', { expression: '0' });
  };
  const responses = async () => {
    await settle();
    return [...byId.values()].flat().map((c) => ({ ...c }));
  };
  return {
    responses,
    total: async () => (await responses()).reduce((sum, r) => sum + r.bytes, 0),
    stop: async () => {
      await settle();
      stopped = true;
      await session.detach();
    },
  };
}
