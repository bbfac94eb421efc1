export * from './validation/field-problems.util';
export * from './validation/validate-body.util';
export * from './validation/check-body.util';
export * from './validation/value-checks.util';
export * from './validation/rule.decorator';
export * from './validation/field.decorator';
export * from './validation/scalar-field.decorator';
export * from './validation/nested-field.decorator';
export * from './validation/micros-field.decorator';

export * from './native/native-values.constants';
export * from './native/part.dto';
export * from './native/content.dto';
export * from './native/generation-config.dto';
export * from './native/safety-setting.dto';
export * from './native/tool.dto';
export * from './native/tool-config.dto';
export * from './native/native-generate-request.dto';

export * from './openai/chat-values.constants';
export * from './openai/chat-content.check';
export * from './openai/chat-tool.dto';
export * from './openai/chat-message.dto';
export * from './openai/chat-completion-request.dto';

export * from './admin/admin-values.constants';
export * from './admin/masked-secret.util';
export * from './admin/channel.dto';
export * from './admin/channel-view.dto';
export * from './admin/key.dto';
export * from './admin/key-view.dto';
export * from './admin/account.dto';
export * from './admin/account-view.dto';
export * from './admin/price.dto';
export * from './admin/logs-query.dto';
export * from './admin/log-view.dto';
export * from './admin/usage-query.dto';
export * from './admin/usage-row.dto';
