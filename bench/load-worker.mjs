// Load generator for bench/mcp.ts, in its own thread so that it does not share the server's event loop.
import { parentPort, workerData } from 'node:worker_threads';

const { url, bodies, headers, concurrency, durationMs, warmupMs } = workerData;

async function client(state, offset) {
  let i = offset;
  while (!state.stop) {
    const body = bodies[i++ % bodies.length];
    const t = performance.now();
    const res = await fetch(url, { method: 'POST', headers, body });
    const text = await res.text();
    if (state.measuring) {
      state.latencies.push(performance.now() - t);
      if (res.status !== 200 || !text.includes('"ok":true')) state.errors++;
      else state.calls++;
    }
  }
}

const state = { stop: false, measuring: false, calls: 0, errors: 0, latencies: [] };
const loops = Array.from({ length: concurrency }, (_, i) => client(state, i * 7));
await new Promise((r) => setTimeout(r, warmupMs));
state.measuring = true;
const started = performance.now();
await new Promise((r) => setTimeout(r, durationMs));
state.measuring = false;
const elapsed = performance.now() - started;
state.stop = true;
await Promise.all(loops);
parentPort.postMessage({ calls: state.calls, errors: state.errors, elapsedMs: elapsed, latencies: state.latencies });
