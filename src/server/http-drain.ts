import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface DrainReport {
  /** Requests answered while draining (in flight at the start, or sent on a connection that was still open), stopped ones included. */
  finished: number;
  /** Requests still unanswered when the grace period ran out: stopped (see `drain`). */
  stopped: number;
  /** Stopped requests still unanswered STOPPED_ANSWER_MS later; their connections were cut. */
  cutOff: number;
  /** Subscriptions over Server-Sent Events, ended at once like the WebSocket ones. */
  eventStreams: number;
  ms: number;
}

const POLL_MS = 20;
/**
 * How long requests stopped at the end of the grace period get to answer: at once, unless a write of theirs was on the
 * database (a COMMIT under way, a cancelled statement returning). Below main.ts's margin for the whole close.
 */
export const STOPPED_ANSWER_MS = 5_000;

const isEventStream = (request: IncomingMessage) => (request.headers.accept ?? "").includes("text/event-stream");

/**
 * Follows a server's connections and requests so that `drain` can stop it gracefully: refuse new
 * connections, let the requests in flight finish within the grace period, then stop the rest and cut whatever
 * still does not answer.
 */
export function trackRequests(server: Server) {
  const sockets = new Set<Socket>();
  const inFlight = new Set<ServerResponse>();
  const eventStreams = new Set<ServerResponse>();
  let draining = false;
  let finishedWhileDraining = 0;

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const tracked = isEventStream(request) ? eventStreams : inFlight;
    if (draining && tracked === eventStreams) return void response.destroy();
    // Answers sent while draining tell keep-alive clients not to reuse the connection.
    if (draining) response.shouldKeepAlive = false;
    tracked.add(response);
    response.once("close", () => {
      tracked.delete(response);
      if (draining && tracked === inFlight && response.writableFinished) finishedWhileDraining++;
    });
  });

  const waitUntil = async (done: () => boolean, deadline: number) => {
    while (!done() && Date.now() < deadline) {
      // Connections that became idle (a request finished) would otherwise keep the server open.
      server.closeIdleConnections();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  return {
    /**
     * Stops the server within `graceMs`: then `stopRequests` stops the requests still in flight (their writes rolled
     * back or cancelled unless committing, their answers a 503 unless the database had their write), which get
     * STOPPED_ANSWER_MS to answer before their connections are cut.
     */
    async drain(graceMs: number, stopRequests: () => void = () => {}): Promise<DrainReport> {
      const started = Date.now();
      const deadline = started + graceMs;
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const streams = eventStreams.size;
      for (const stream of eventStreams) stream.destroy();
      for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
      await waitUntil(() => inFlight.size === 0, deadline);
      const stopped = inFlight.size;
      stopRequests();
      await waitUntil(() => inFlight.size === 0, Date.now() + (stopped ? STOPPED_ANSWER_MS : 0));
      const cutOff = inFlight.size;
      // Upgraded (WebSocket) connections are closed by their own server; they get the rest of the grace period.
      await waitUntil(() => sockets.size === 0, deadline);
      for (const socket of sockets) socket.destroy();
      await closed;
      return { finished: finishedWhileDraining, stopped, cutOff, eventStreams: streams, ms: Date.now() - started };
    },
  };
}
