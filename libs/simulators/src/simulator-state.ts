import { IncomingMessage } from 'node:http';
import { newAlphaTaskStore } from './alpha/alpha-tasks';
import { BetaTaskStore } from './beta/beta-task.store';
import { EtaAssetLibrary } from './eta/control-plane/eta-asset-library';
import { ThetaTaskRegistry } from './eta/eta-theta-tasks';
import { CompatVideoStore } from './compat/video/compat-video.store';
import { GammaTaskRegistry } from './gamma/gamma-tasks';
import { newLambdaTaskStore } from './lambda/lambda-tasks';
import { MuTaskRegistry } from './mu/mu-tasks';
import { newOmegaTaskStore } from './omega/omega-tasks';
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
  /** theta video tasks of the eta data plane; like beta tasks they outlive `reset`. */
  readonly etaThetaTasks = new ThetaTaskRegistry();
  /** theta 2.0 asset groups and assets of the eta control plane; like the tasks they outlive `reset`. */
  readonly etaAssets = new EtaAssetLibrary();
  readonly muTasks = new MuTaskRegistry();
  readonly omegaTasks = newOmegaTaskStore();
  readonly alphaTasks = newAlphaTaskStore();
  readonly lambdaTasks = newLambdaTaskStore();
  readonly gammaTasks = new GammaTaskRegistry();
  /** Videos and characters of the compat wire; like beta tasks they outlive `reset`, their counts do not. */
  readonly compatVideos = new CompatVideoStore();
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
    this.compatVideos.resetCounts();
  }
}
