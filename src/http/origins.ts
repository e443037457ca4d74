import type { IncomingMessage } from 'node:http';
import { networkInterfaces } from 'node:os';
import { TroveError } from '../errors.js';
import { isLoopbackHost } from './auth.js';

// Host and Origin validation (DNS-rebinding and cross-site guard): a request must name this server,
// by the address it listens on or by a public origin a reverse proxy serves it under.

export interface OriginPolicyOptions {
  /** The host the server listens on (server.address without the port). */
  bindHost: string;
  /** server.public_origin and the origin of server.base_url. */
  publicOrigins: readonly string[];
  /** The port actually bound (known once listening). */
  port: () => number;
}

interface PublicOrigin {
  origin: string;
  hostname: string;
  port: number;
}

interface HostName {
  hostname: string;
  port: number | undefined;
}

const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)(?::(\d{1,5}))?$/i;

function parseHost(header: string | undefined): HostName | undefined {
  const m = HOST_HEADER.exec(header ?? '');
  if (!m) return undefined;
  return { hostname: m[1]!.toLowerCase(), port: m[2] === undefined ? undefined : Number(m[2]) };
}

function parseUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const effectivePort = (url: URL): number => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/** IPv6 addresses in brackets, as Host headers carry them. */
const bracketed = (host: string): string => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host).toLowerCase();

const isWildcard = (host: string): boolean => ['', '0.0.0.0', '::', '[::]'].includes(host);

/** Every address of this machine: what a wildcard bind answers on. */
function localAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(bracketed(a.address.replace(/%.*$/, '')));
  return out;
}

export class OriginPolicy {
  private readonly publics: PublicOrigin[];
  private readonly bindHost: string;

  constructor(private readonly options: OriginPolicyOptions) {
    this.bindHost = bracketed(options.bindHost);
    this.publics = options.publicOrigins.map((o) => {
      const url = parseUrl(o);
      if (!url) throw new TroveError('INVALID_CONFIG', `config server.public_origin: not an http(s) origin: ${JSON.stringify(o)}`, { key: 'server.public_origin' });
      return { origin: url.origin, hostname: url.hostname.toLowerCase(), port: effectivePort(url) };
    });
  }

  /** FORBIDDEN unless Host names this server and a present Origin is allowed. */
  check(req: IncomingMessage): void {
    const host = parseHost(req.headers.host);
    if (!host || !this.hostAllowed(host)) throw new TroveError('FORBIDDEN', 'Host header does not name this server; a public address belongs in server.public_origin');
    const origin = req.headers.origin;
    if (origin !== undefined && !this.originAllowed(origin, host)) throw new TroveError('FORBIDDEN', 'Origin not allowed');
  }

  private hostAllowed(host: HostName): boolean {
    if (this.publics.some((p) => p.hostname === host.hostname && (host.port === undefined || host.port === p.port))) return true;
    if (isLoopbackHost(this.bindHost) || isWildcard(this.bindHost)) {
      if (isLoopbackHost(host.hostname)) return true;
    }
    if (host.hostname === this.bindHost) return true;
    return isWildcard(this.bindHost) && localAddresses().has(host.hostname);
  }

  private originAllowed(origin: string, host: HostName): boolean {
    const url = parseUrl(origin);
    if (!url) return false;
    if (this.publics.some((p) => p.origin === url.origin)) return true;
    // Same host as the (already accepted) Host header: a page served by this server itself.
    if (url.hostname.toLowerCase() === host.hostname && effectivePort(url) === (host.port ?? effectivePort(url))) return true;
    return isLoopbackHost(url.hostname) && isLoopbackHost(host.hostname) && effectivePort(url) === this.options.port();
  }
}
