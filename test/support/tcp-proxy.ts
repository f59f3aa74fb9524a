import net from "node:net";

/** PostgreSQL's ReadyForQuery message outside a transaction: tag 'Z', length 5, status 'I' (idle). */
const READY_IDLE = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
/** A statement that writes, as the client sends it (Prisma's and ours are upper case). */
const WRITES = /\b(INSERT|UPDATE|DELETE)\b/;

/**
 * A TCP proxy of the test's own in front of a server (PostgreSQL), to take the server away from a client without
 * touching the server: `cut()` drops every connection and refuses new ones, as an unreachable server does.
 */
export interface TcpProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /** Drops every open connection and stops accepting (new connections are refused). */
  cut(): Promise<void>;
  /** Cuts as soon as the server has committed a write (a transaction's or a statement's alone); the confirmation reaches the client. */
  cutAfterNextCommit(): Promise<void>;
  /** Accepts connections again (on the same port) after a cut. */
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let afterCommit: (() => void) | undefined;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    track(client);
    track(upstream);
    // A write commits when the connection is next idle: after its transaction's COMMIT, or after the statement
    // itself when it ran alone.
    let wrote = false;
    client.on("data", (chunk: Buffer) => {
      if (WRITES.test(chunk.toString("latin1"))) wrote = true;
      upstream.write(chunk);
    });
    // The end of the previous chunk: the server's confirmation may arrive split across two.
    let tail = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      const watcher = afterCommit;
      const seen = Buffer.concat([tail, chunk]);
      tail = seen.subarray(Math.max(0, seen.length - (READY_IDLE.length - 1)));
      const committed = wrote && seen.includes(READY_IDLE);
      if (seen.includes(READY_IDLE)) wrote = false;
      if (watcher && committed) {
        afterCommit = undefined;
        client.write(chunk, watcher);
      } else client.write(chunk);
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  let closed: Promise<void> | undefined;
  const cut = () => {
    closed ??= new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    return closed;
  };
  const resume = async () => {
    await closed;
    closed = undefined;
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  };
  return {
    port,
    urlFor(url) {
      const proxied = new URL(url);
      proxied.hostname = "127.0.0.1";
      proxied.port = String(port);
      return proxied.toString();
    },
    cut,
    resume,
    cutAfterNextCommit: () => new Promise<void>((resolve) => (afterCommit = () => void cut().then(resolve))),
    close: cut,
  };
}
