import type { SettlementInput } from '@gateway/billing';
import { TEXT_SETTLEMENT_JOB_NAME, textSettlementJobOptions, toSettlementJob } from '@gateway/tasks';
import type { Queue } from 'bullmq';

/** Hands one settlement to worker-text as the gateway's settlement recorder does (it adds them in bulk). */
export async function enqueueTextSettlement(queue: Queue, item: SettlementInput): Promise<void> {
  await queue.add(TEXT_SETTLEMENT_JOB_NAME, toSettlementJob(item), textSettlementJobOptions(item.requestId));
}
