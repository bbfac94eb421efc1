import type { ServerResponse } from 'node:http';
import type { TaskObjectView } from '@gateway/contracts';
import { isTerminalTaskEvent, taskEventName, type TaskEvent } from './task-event';

/** How a stream words its events: the neutral task object as `GET /v1/tasks/{id}` answers it. */
export interface TaskEventViews {
  /** An unfinished state: the task as it was opened, with the event's status and progress. */
  progress(event: TaskEvent): TaskObjectView;
  /** The terminal state: the task read again, with its result and cost. */
  terminal(event: TaskEvent): Promise<TaskObjectView>;
}

export interface TaskEventStreamOptions {
  taskId: string;
  accountId: string;
  /** The last event the client has (Last-Event-ID), 0 for none: nothing at or before it is sent. */
  lastSeq: number;
  heartbeatMs: number;
  views: TaskEventViews;
  /** The task's events after a seq: what the stream catches up on once attached. */
  since(taskId: string, afterSeq: number): Promise<TaskEvent[]>;
  /** Called once, whichever way the stream ends. */
  onEnd(stream: TaskEventStream): void;
  onError(error: unknown): void;
}

/**
 * Past this many bytes buffered for a client that does not read, the stream is ended: it resumes from
 * its Last-Event-ID when it reads again, and the gateway holds no backlog for it.
 */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** The reconnection delay suggested to EventSource clients. */
const RECONNECT_HINT_MS = 1_000;

/**
 * One open `text/event-stream` of a task. Events are handled one after another (a terminal event's
 * view is read before the next is looked at), and only those after the last sent id go out, so a
 * replay and the live feed overlapping never repeat one. Ends after the terminal event.
 */
export class TaskEventStream {
  private chain: Promise<void> = Promise.resolve();
  private ended = false;
  private lastSeq: number;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly raw: ServerResponse,
    private readonly options: TaskEventStreamOptions,
  ) {
    this.lastSeq = options.lastSeq;
    this.heartbeat = setTimeout(() => this.keepAlive(), options.heartbeatMs);
    raw.on('close', () => this.end());
    this.write(`retry: ${RECONNECT_HINT_MS}\n\n`);
  }

  get taskId(): string {
    return this.options.taskId;
  }

  get accountId(): string {
    return this.options.accountId;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** A change read by the instance's feed, or by the opening. */
  deliver(event: TaskEvent): void {
    this.enqueue(() => this.emit(event));
  }

  /** Everything recorded after the last event sent, read once (the stream's own query). */
  catchUp(): void {
    this.enqueue(async () => {
      for (const event of await this.options.since(this.taskId, this.lastSeq)) await this.emit(event);
    });
  }

  /** Closes the stream without a terminal event: the client reconnects with its Last-Event-ID. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.heartbeat);
    if (!this.raw.writableEnded) this.raw.end();
    this.options.onEnd(this);
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain
      .then(() => (this.ended ? undefined : step()))
      .catch((error: unknown) => {
        // A view or history read failed (the database is away): the client resumes from its last id.
        this.options.onError(error);
        this.end();
      });
  }

  private async emit(event: TaskEvent): Promise<void> {
    if (this.ended || event.seq <= this.lastSeq) return;
    const terminal = isTerminalTaskEvent(event);
    const view = terminal ? await this.options.views.terminal(event) : this.options.views.progress(event);
    if (this.ended || event.seq <= this.lastSeq) return;
    this.lastSeq = event.seq;
    this.write(`id: ${event.seq}\nevent: ${taskEventName(event.status)}\ndata: ${JSON.stringify(view)}\n\n`);
    if (terminal) this.end();
  }

  private keepAlive(): void {
    if (this.ended) return;
    this.write(': keep-alive\n\n');
  }

  private write(frame: string): void {
    if (this.ended) return;
    this.raw.write(frame);
    if (this.raw.writableLength > MAX_BUFFERED_BYTES) {
      this.end();
      return;
    }
    // Any write shows the client the stream is alive: the next comment is due a full interval later.
    this.heartbeat.refresh();
  }
}
