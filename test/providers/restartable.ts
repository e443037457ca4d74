import { type RequestListener, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A node:http server on 127.0.0.1 that can go down (connections cut) and come back on the same port. */
export interface RestartableServer {
  url: string;
  /** Stops listening and destroys open connections. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export async function startRestartable(handler: RequestListener): Promise<RestartableServer> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      for (const s of sockets) s.destroy();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
    },
    start: () => listen(port),
  };
}
