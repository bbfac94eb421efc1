/** How many calls one statement serves, and how many statements may be in flight at once. */
export interface BatchLimits {
  maxBatch: number;
  maxInFlight: number;
}

/** The outcome of each call of a batch, in the order the calls were given. */
export type BatchOutcomes<Result> = PromiseSettledResult<Result>[];

interface PendingCall<Input, Result> {
  input: Input;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

// perf-machinery: statement-batcher (docs/performance-machinery.md)
/**
 * Calls that go to Postgres together. A call is sent at once when fewer than `maxInFlight` statements
 * are in flight (no added latency); calls that arrive meanwhile wait and go together in the next
 * statement, so under load one round trip and one commit serve many of them. `send` gets the inputs
 * of one batch and answers each call (a call may fail alone); a `send` that throws fails its batch.
 */
export class StatementBatcher<Input, Result> {
  private waiting: PendingCall<Input, Result>[] = [];
  private inFlight = 0;

  constructor(
    private readonly send: (inputs: Input[]) => Promise<BatchOutcomes<Result>>,
    private readonly limits: BatchLimits,
  ) {}

  call(input: Input): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.sendWaiting();
    });
  }

  private sendWaiting(): void {
    while (this.waiting.length > 0 && this.inFlight < this.limits.maxInFlight) {
      const batch = this.waiting.splice(0, this.limits.maxBatch);
      this.inFlight += 1;
      void this.sendBatch(batch).finally(() => {
        this.inFlight -= 1;
        this.sendWaiting();
      });
    }
  }

  private async sendBatch(batch: PendingCall<Input, Result>[]): Promise<void> {
    try {
      const outcomes = await this.send(batch.map((pending) => pending.input));
      batch.forEach((pending, index) => {
        const outcome = outcomes[index];
        if (outcome?.status === 'fulfilled') pending.resolve(outcome.value);
        else pending.reject(outcome ? outcome.reason : new Error('the batch gave this call no outcome'));
      });
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  }
}
