import { DomainError, ErrorCode } from "../errors.ts";

/** How a write stopped (or refused) because the server is shutting down ends: 503, and nothing of it was applied. */
export const writesStopped = () => new DomainError(ErrorCode.UNAVAILABLE, "The server is shutting down; this request was not applied. Retry it.");

/**
 * The backend a write runs on: its pid and, for a transaction, the moment the transaction began (`now()` in it), so that
 * a cancel sent late, once the connection serves someone else, reaches nothing.
 */
export interface Backend {
  pid: number;
  transactionStart?: string;
}

/** PostgreSQL's cancel of what `backend` runs. */
export type CancelBackend = (backend: Backend) => Promise<void>;

/** While a stopped write has not ended, its backend is cancelled again this often (a cancel that lands between statements is lost). */
const CANCEL_AGAIN_MS = 500;

/**
 * One write — an interactive transaction, or a statement that commits alone — from its start until it has ended.
 * Stopping it before its commit goes out rolls it back: `unlessStopped` rejects the transaction's work at once (so it
 * rolls back) and the backend running it is cancelled (a statement waiting for a lock fails with SQLSTATE 57014).
 */
export class OpenWrite {
  #stopped = false;
  /** The transaction's work finished (its commit or its failure is under way): stopping no longer touches it. */
  #settled = false;
  #backend: Backend | undefined;
  #cancelTimer: NodeJS.Timeout | undefined;
  readonly #rejections = new Set<(error: Error) => void>();
  readonly #endListeners: Array<() => void> = [];

  constructor(private readonly cancelBackend: CancelBackend | undefined) {}

  /**
   * Whether it was stopped before its commit went out. A transaction then rolls back; a statement that commits alone
   * was cancelled, and failed unless it finished first.
   */
  get stopped() {
    return this.#stopped;
  }

  /** The PostgreSQL backend running its statements, which stopping it cancels. Throws once stopped: send nothing more. */
  runsOn(backend: Backend | undefined): void {
    if (this.#stopped) throw writesStopped();
    this.#backend = backend;
  }

  /** `work`'s outcome, unless the write is stopped first: then writesStopped at once. */
  unlessStopped<T>(work: Promise<T>): Promise<T> {
    if (this.#stopped) return Promise.reject(writesStopped());
    const settled = work.finally(() => {
      this.#settled = true;
    });
    return Promise.race([settled, new Promise<never>((_, reject) => this.#rejections.add(reject))]);
  }

  /** Its COMMIT goes out now: stopping no longer touches it. Throws if it was stopped first (then it must roll back). */
  commits(): void {
    if (this.#stopped) throw writesStopped();
    this.#settled = true;
    this.#backend = undefined;
  }

  stop(): void {
    if (this.#settled || this.#stopped) return;
    this.#stopped = true;
    for (const reject of this.#rejections) reject(writesStopped());
    this.#cancelUntilEnded();
  }

  end(): void {
    clearTimeout(this.#cancelTimer);
    this.#backend = undefined;
    for (const listener of this.#endListeners) listener();
  }

  whenEnded(listener: () => void): void {
    this.#endListeners.push(listener);
  }

  #cancelUntilEnded() {
    const backend = this.#backend;
    if (backend === undefined || !this.cancelBackend) return;
    void this.cancelBackend(backend).catch(() => {});
    this.#cancelTimer = setTimeout(() => this.#cancelUntilEnded(), CANCEL_AGAIN_MS);
  }
}

/** Where writes begin: the server's gate, or the scope of one request or WebSocket connection. */
export interface Writes {
  /** A write beginning; throws writesStopped once writes are stopped. Call `end()` on it whatever happens. */
  begin(): OpenWrite;
}

/**
 * The writes of one server. Closing it (when the shutdown's grace period ends) stops every write that has not sent its
 * commit, and refuses any write after.
 */
export class WriteGate implements Writes {
  #closed = false;
  readonly #open = new Set<OpenWrite>();

  /** `cancelBackend`: PostgreSQL's cancel of a backend's running statement; none on the embedded database. */
  constructor(private readonly cancelBackend?: CancelBackend) {}

  begin(): OpenWrite {
    if (this.#closed) throw writesStopped();
    const write = new OpenWrite(this.cancelBackend);
    this.#open.add(write);
    write.whenEnded(() => this.#open.delete(write));
    return write;
  }

  /** The writes of one request or connection, which can also be stopped alone. */
  scope(): WriteScope {
    return new WriteScope(this);
  }

  close(): void {
    this.#closed = true;
    for (const write of this.#open) write.stop();
  }
}

/** The writes of one HTTP request or WebSocket connection. */
export class WriteScope implements Writes {
  #began = false;
  #closed = false;
  readonly #open = new Set<OpenWrite>();

  constructor(private readonly gate: Writes) {}

  /** Whether a write began here: then only the database knows whether it commits, and the answer must say what it did. */
  get began() {
    return this.#began;
  }

  begin(): OpenWrite {
    this.#began = true;
    if (this.#closed) throw writesStopped();
    const write = this.gate.begin();
    this.#open.add(write);
    write.whenEnded(() => this.#open.delete(write));
    return write;
  }

  /** Stops the writes of this scope that have not sent their commit, and refuses any after. */
  close(): void {
    this.#closed = true;
    for (const write of this.#open) write.stop();
  }
}
