/** B7: static reads under load through the local server's rules, against Node's http serving the same file. */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type Measure, ms } from './measure.js';
import { type Child, startChild } from './server.js';

export async function staticBenchmark(server: Child, root: string, publish: string): Promise<Measure[]> {
  const file = join(realpathSync(publish), 'data', 'cities.json');
  const plain = await startChild(
    [
      '-e',
      `const fs=require('fs'),http=require('http');http.createServer((q,s)=>fs.readFile(${JSON.stringify(file)},(e,b)=>{s.writeHead(200,{'content-type':'application/json'});s.end(b)})).listen(0,'127.0.0.1',function(){console.log('on http://127.0.0.1:'+this.address().port)})`,
    ],
    {},
    root,
    /on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  try {
    const load = (url: string) => autocannon({ url, connections: 10, duration: 10 });
    const ours = await load(`${server.url}/api/cities`);
    const theirs = await load(`${plain.url}/`);
    if (ours.non2xx > 0 || ours.errors > 0) throw new Error(`static load saw ${ours.non2xx} non-2xx and ${ours.errors} errors`);
    return [
      {
        id: 'B7',
        what: `static reads (/api/cities through the rules), autocannon 10 s x 10 connections: p99 ${ms(ours.latency.p99)}`,
        value: `${Math.round(ours.requests.average)} req/s`,
        baseline: `${Math.round(theirs.requests.average)} req/s, p99 ${ms(theirs.latency.p99)} (node http, same file)`,
        ratio: theirs.requests.average / ours.requests.average,
        target: 'reported',
        met: null,
      },
    ];
  } finally {
    plain.process.kill();
  }
}
