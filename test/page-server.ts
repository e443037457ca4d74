import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface PageServer {
  /** http://127.0.0.1:<port> */
  base: string;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1, port 0, answering by exact path (query included); 404 otherwise.
 * close() destroys open sockets too, so hanging handlers do not keep the test alive.
 */
export async function startPageServer(routes: Record<string, PageHandler>): Promise<PageServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route) return route(req, res);
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<p>not here</p>');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A handler sending `body` with the given headers. */
export function page(body: string | Buffer, headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' }, status = 200): PageHandler {
  return (_req, res) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

export function redirect(location: string, status = 302): PageHandler {
  return page('', { location }, status);
}
