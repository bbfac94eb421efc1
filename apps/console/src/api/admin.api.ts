// One function per admin route the console calls; the pages never build URLs themselves.
import { adminRequest, type Query } from './admin-client';
import type {
  Account,
  AuditReport,
  Budget,
  Channel,
  ChannelModel,
  ChannelTestResult,
  CreatedKey,
  Key,
  LedgerEntry,
  Limits,
  LogRow,
  Overview,
  Page,
  Price,
  Task,
  TaskDetail,
  UsageRow,
} from './admin.types';

const id = (value: string) => encodeURIComponent(value);

export interface ChannelInput {
  type?: string;
  name?: string;
  baseUrl?: string;
  secret?: string;
  settings?: Record<string, unknown>;
  models?: ChannelModel[];
  priority?: number;
  weight?: number;
  pollsPerSecond?: number | null;
  status?: 'enabled' | 'disabled';
}

export const channelsApi = {
  list: () => adminRequest<Channel[]>('GET', '/admin/channels'),
  create: (body: ChannelInput) => adminRequest<Channel>('POST', '/admin/channels', { body }),
  update: (channelId: string, body: ChannelInput) =>
    adminRequest<Channel>('PATCH', `/admin/channels/${id(channelId)}`, { body }),
  remove: (channelId: string) => adminRequest<void>('DELETE', `/admin/channels/${id(channelId)}`),
  test: (channelId: string, model?: string) =>
    adminRequest<ChannelTestResult>('POST', `/admin/channels/${id(channelId)}/test`, {
      body: model ? { model } : {},
    }),
};

export interface KeyInput {
  accountId?: string;
  name?: string;
  status?: 'active' | 'disabled';
  expiresAt?: string | null;
  allowedModels?: string[];
  limits?: Limits | null;
  budget?: Budget | null;
  allowedIps?: string[];
}

export const keysApi = {
  list: (accountId?: string) => adminRequest<Key[]>('GET', '/admin/keys', { query: { accountId } }),
  create: (body: KeyInput) => adminRequest<CreatedKey>('POST', '/admin/keys', { body }),
  update: (keyId: string, body: KeyInput) => adminRequest<Key>('PATCH', `/admin/keys/${id(keyId)}`, { body }),
  remove: (keyId: string) => adminRequest<void>('DELETE', `/admin/keys/${id(keyId)}`),
};

export interface MoneyMove {
  amountMicros: string;
  idempotencyKey: string;
  note?: string;
}

export const accountsApi = {
  page: (query: Query) => adminRequest<Page<Account>>('GET', '/admin/accounts', { query }),
  get: (accountId: string) => adminRequest<Account>('GET', `/admin/accounts/${id(accountId)}`),
  create: (body: { name: string; overdraftLimitMicros?: string; limits?: Limits; budget?: Budget }) =>
    adminRequest<Account>('POST', '/admin/accounts', { body }),
  update: (accountId: string, body: { name?: string; overdraftLimitMicros?: string }) =>
    adminRequest<Account>('PATCH', `/admin/accounts/${id(accountId)}`, { body }),
  credit: (accountId: string, body: MoneyMove) =>
    adminRequest<{ applied: boolean; account: Account }>('POST', `/admin/accounts/${id(accountId)}/credits`, {
      body,
    }),
  debit: (accountId: string, body: MoneyMove) =>
    adminRequest<{ applied: boolean; account: Account }>('POST', `/admin/accounts/${id(accountId)}/debits`, {
      body,
    }),
  ledger: (accountId: string, query: Query) =>
    adminRequest<Page<LedgerEntry>>('GET', `/admin/accounts/${id(accountId)}/ledger`, { query }),
};

export const pricesApi = {
  list: () => adminRequest<{ prices: Price[] }>('GET', '/admin/prices'),
  put: (prices: Price[]) => adminRequest<{ prices: Price[] }>('PUT', '/admin/prices', { body: { prices } }),
};

export const logsApi = {
  page: (query: Query) => adminRequest<Page<LogRow>>('GET', '/admin/logs', { query }),
};

export const tasksApi = {
  page: (query: Query) => adminRequest<Page<Task>>('GET', '/admin/tasks', { query }),
  get: (taskId: string) => adminRequest<TaskDetail>('GET', `/admin/tasks/${id(taskId)}`),
  cancel: (taskId: string, reason: string) =>
    adminRequest<{ upstreamStopped: boolean; task: TaskDetail }>(
      'POST',
      `/admin/tasks/${id(taskId)}/cancel`,
      {
        body: { reason },
      },
    ),
  refund: (taskId: string, reason: string, idempotencyKey: string) =>
    adminRequest<{ applied: boolean; amountMicros: string; task: TaskDetail }>(
      'POST',
      `/admin/tasks/${id(taskId)}/refund`,
      { body: { reason, idempotencyKey } },
    ),
};

export const figuresApi = {
  overview: (query: { window: string; bucket: 'minute' | 'hour'; top?: number }) =>
    adminRequest<Overview>('GET', '/admin/overview', { query }),
  usage: (query: { groupBy: string; from?: string; to?: string }) =>
    adminRequest<UsageRow[]>('GET', '/admin/usage', { query }),
  audit: () => adminRequest<AuditReport>('GET', '/admin/audit'),
};
