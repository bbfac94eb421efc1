import { IncomingMessage } from 'node:http';
import { BetaTaskStore } from './beta/beta-task.store';
import { RequestJournal } from './request-journal';
import { ResultFileStore } from './result-file.store';
import { SimulatedExchange } from './simulated-exchange';
import { SimulatorStats } from './simulator-stats';

/** Everything one simulator instance remembers across requests. */
export class SimulatorState {
  readonly stats = new SimulatorStats();
  readonly journal = new RequestJournal();
  /** Generated files behind result URLs; kept across `reset` like the tasks that point at them. */
  readonly files = new ResultFileStore();
  readonly betaTasks = new BetaTaskStore();
  private readonly exchanges = new WeakMap<IncomingMessage, SimulatedExchange>();

  begin(request: IncomingMessage, prefix: string | undefined): void {
    this.exchanges.set(request, SimulatedExchange.fromPrefix(prefix));
  }

  exchangeOf(request: IncomingMessage): SimulatedExchange {
    let exchange = this.exchanges.get(request);
    if (!exchange) {
      exchange = SimulatedExchange.fromPrefix(undefined);
      this.exchanges.set(request, exchange);
    }
    return exchange;
  }

  reset(): void {
    this.stats.reset();
    this.journal.clear();
  }
}
