import { request as httpRequest } from 'node:http';
import { type Socket, connect } from 'node:net';

// HTTP at the level fetch hides: any Host header, bodies that stall, headers that trickle.

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    if (eol < 0) return out;
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 4 + size);
  }
}

/** The first response in what a server wrote on a socket. */
export function parseResponse(raw: string): RawReply {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP response in ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let text = raw.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') text = dechunk(text);
  else if (headers['content-length'] !== undefined) text = text.slice(0, Number(headers['content-length']));
  return { status: Number(statusLine!.split(' ')[1]), headers, text, body: parseJson(text) };
}

export interface RawConnection {
  socket: Socket;
  /** Everything the server wrote, once the connection has closed (by either side). */
  closed: Promise<string>;
}

/** A TCP connection to the server at `origin` that has written `head` (and whatever else the test writes later). */
export function openRaw(origin: string, head: string): RawConnection {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (data += d));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(data)));
  socket.write(head);
  return { socket, closed };
}

/** Request head of a POST whose body will be `length` bytes of JSON. */
export function postHead(path: string, length: number, host = '127.0.0.1'): string {
  return `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${length}\r\n\r\n`;
}

/** One request through node:http, which (unlike fetch) sends the Host header it is given. */
export function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) headers[k] = String(v);
        resolve({ status: res.statusCode ?? 0, headers, text, body: parseJson(text) });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Polls `probe` until `done` holds for its result (at most `tries` times). */
export async function eventually<T>(probe: () => Promise<T>, done: (r: T) => boolean, tries = 200): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    last = await probe();
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`condition not reached; last result ${JSON.stringify(last)}`);
}
