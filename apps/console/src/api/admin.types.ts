// The admin API's shapes as the console reads them (apps/gateway/src/admin and libs/contracts/src/admin
// declare them; the OpenAPI document at /docs/openapi.json is generated from those). Written out here
// because the console imports nothing from the server. Money is micros as decimal strings throughout.

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface ChannelModel {
  model: string;
  upstreamModel?: string;
}

export interface Channel {
  id: string;
  type: string;
  name: string;
  baseUrl: string;
  secretMasked: string;
  models: ChannelModel[];
  settings: Record<string, unknown>;
  priority: number;
  weight: number;
  /** Ceiling on this channel's task polls per second across every worker; null: none. */
  pollsPerSecond: number | null;
  status: 'enabled' | 'disabled';
  createdAt: string;
  updatedAt: string;
  circuit?: { state: 'closed' | 'open' | 'half_open'; openedAt?: string };
  recentErrors?: { windowMinutes: number; requests: number; errors: number; errorRate: number };
}

export interface ChannelTestResult {
  ok: boolean | null;
  skipped?: string;
  latencyMs?: number;
  model?: string;
  capability: string;
  status?: number;
  error?: { kind: string; message: string };
}

/** Limits of the governance issue; every field optional, absent on gateways without it. */
export interface Limits {
  requestsPerMinute?: number | null;
  tokensPerMinute?: number | null;
  concurrentRequests?: number | null;
  outstandingTasks?: number | null;
}

export const BUDGET_PERIODS = ['day', 'week', 'month', 'total'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

export interface Budget {
  amountMicros: string;
  period: BudgetPeriod;
}

/** Current figures against the limits and budget (a single key's or account's GET, where governance landed). */
export interface GovernanceFigures {
  requestsThisMinute: number | null;
  tokensThisMinute: number | null;
  inFlight: number | null;
  outstandingTasks: number;
  budgetSpentMicros: string | null;
  budgetResetsAt: string | null;
}

export interface Key {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  status: 'active' | 'disabled';
  expiresAt: string | null;
  allowedModels: string[];
  createdAt: string;
  updatedAt: string;
  limits?: Limits | null;
  budget?: Budget | null;
  allowedIps?: string[];
  current?: GovernanceFigures;
}

export interface CreatedKey extends Key {
  key: string;
}

export interface Account {
  id: string;
  name: string;
  balanceMicros: string;
  heldMicros: string;
  availableMicros: string;
  overdraftLimitMicros: string;
  createdAt: string;
  updatedAt: string;
  limits?: Limits | null;
  budget?: Budget | null;
  current?: GovernanceFigures;
}

export interface LedgerEntry {
  id: string;
  kind: string;
  amountMicros: string;
  idempotencyKey: string;
  requestId: string | null;
  taskId: string | null;
  note: string | null;
  createdAt: string;
}

export interface Price {
  model: string;
  inputPerMillion?: string;
  outputPerMillion?: string;
  perCall?: string;
  perImage?: Record<string, string>;
  perVideoSecond?: Record<string, string>;
  defaultMaxOutputTokens?: number;
  maxReasoningTokens?: number;
}

export interface LogRow {
  requestId: string;
  keyId: string | null;
  accountId: string | null;
  model: string | null;
  channelId: string | null;
  route: string;
  httpStatus: number;
  endReason: string;
  latencyMs: number;
  ttfbMs: number | null;
  inputTokens: number;
  outputTokens: number;
  imageCount: number;
  mediaSeconds: number;
  costMicros: string;
  overageMicros: string;
  attempts: number;
  createdAt: string;
}

export const TASK_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;

export interface TaskMoney {
  holdStatus: 'open' | 'settled' | null;
  heldMicros: string;
  capturedMicros: string;
  releasedMicros: string;
  refundedMicros: string;
}

export interface Task {
  id: string;
  kind: string;
  status: string;
  progress: number;
  model: string;
  accountId: string;
  keyId: string;
  channelId: string | null;
  failureReason: string | null;
  stuck: boolean;
  deadlineAt: string;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  money: TaskMoney;
}

export interface TaskDetail extends Task {
  upstreamHandle: Record<string, unknown> | null;
  attempts: number | null;
  remixedFromId: string | null;
  timeline: { event: string; at: string }[];
  /** Where the gateway serves what the task produced; the field's name is read tolerantly (preview.util). */
  [extra: string]: unknown;
}

export interface OverviewPoint {
  at: string;
  requests: number;
  errors: number;
  spendMicros: string;
  latencyP50Ms: number;
  latencyP95Ms: number;
}

export interface OverviewSeries {
  name: string;
  points: OverviewPoint[];
}

export interface Overview {
  from: string;
  to: string;
  bucket: 'minute' | 'hour';
  total: OverviewPoint[];
  byModel: OverviewSeries[];
  byChannel: OverviewSeries[];
}

export interface UsageRow {
  group: string;
  keyId?: string;
  accountId?: string;
  model?: string;
  channelId?: string;
  day?: string;
  hour?: string;
  requests: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  images: number;
  mediaSeconds: number;
  costMicros: string;
}

export interface AuditFinding {
  kind: string;
  accountId: string;
  expected: string;
  actual: string;
  message: string;
}

export interface AuditReport {
  ok: boolean;
  checkedAt: string;
  findings: AuditFinding[];
  totals: Record<string, string | number>;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  accountId?: string | null;
  description?: string | null;
  status?: string;
  disabledReason?: string | null;
  previousSecretExpiresAt?: string | null;
  createdAt?: string;
  /** Only in the answers to create and rotate-secret: shown once. */
  secret?: string;
}

export interface WebhookAttempt {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  createdAt: string;
}

/** One event's delivery to one endpoint, with every attempt made. */
export interface WebhookDelivery {
  id: string;
  eventId?: string;
  eventType?: string;
  subjectId?: string;
  status?: string;
  nextAttemptAt?: string;
  deliveredAt?: string | null;
  createdAt?: string;
  attempts?: WebhookAttempt[];
}
