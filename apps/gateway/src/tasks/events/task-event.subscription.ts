import type { ServerResponse } from 'node:http';
import type { TaskEvent } from './task-event';
import type { TaskEventHub } from './task-event.hub';
import { TaskEventStream, type TaskEventStreamOptions } from './task-event.stream';

/**
 * An opened task event stream not yet written: its slot is reserved and its backlog read. The writer
 * either attaches it to the client's connection or releases it; nothing async may come in between,
 * or a change could land after the backlog and before the hub feeds the stream.
 */
export class TaskEventSubscription {
  private settled = false;

  constructor(
    private readonly hub: TaskEventHub,
    private readonly options: TaskEventStreamOptions,
    private readonly backlog: readonly TaskEvent[],
    /** Where the feed starts following a task no stream followed yet: the last event id read. */
    private readonly feedAfterSeq: number,
  ) {}

  /**
   * Starts the stream on a connection whose head is written: the backlog, then the hub's feed.
   * `clientGone`: the client left while the stream was being opened, so its 'close' came before the
   * stream listened.
   */
  attach(raw: ServerResponse, clientGone: boolean): void {
    this.settle();
    let attached = false;
    try {
      const stream = new TaskEventStream(raw, this.options);
      this.hub.attach(stream, this.feedAfterSeq);
      attached = true;
      if (clientGone) stream.end();
      for (const event of this.backlog) stream.deliver(event);
      // A change recorded between the history read and the attachment may be behind the feed's cursor
      // of the task (other streams follow it): read once more after the backlog; the stream's id check
      // drops what it already sent.
      stream.catchUp();
    } finally {
      if (!attached) this.hub.release(this.options.accountId);
    }
  }

  /** Frees the reserved slot of a stream that will not be written. */
  release(): void {
    this.settle();
    this.hub.release(this.options.accountId);
  }

  private settle(): void {
    if (this.settled) throw new Error('A task event subscription is attached or released once.');
    this.settled = true;
  }
}
