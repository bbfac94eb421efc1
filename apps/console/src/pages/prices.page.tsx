import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { pricesApi } from '../api/admin.api';
import type { Price } from '../api/admin.types';
import { microsToUnits, unitsToMicros } from '../format/money.util';
import { hasProblems, optionalInteger, requiredName, type Problems } from '../forms/validation.util';
import { clientPaging } from '../hooks/list-paging';
import { useClientPages } from '../hooks/use-client-pages';
import { Notice } from '../ui/error-banner';
import { FormActions } from '../ui/form-actions';
import { TextAreaField, TextField } from '../ui/field';
import { ListPage, Toolbar } from '../ui/list-page';
import { PageHeader, Panel } from '../ui/page-header';

const units = (micros?: string) => (micros === undefined ? '' : microsToUnits(micros));
const tiersText = (tiers?: Record<string, string>) =>
  Object.entries(tiers ?? {})
    .map(([tier, micros]) => `${tier}=${microsToUnits(micros)}`)
    .join('\n');

/** "1080p=0.1" lines → { "1080p": "100000" }, or the first line it cannot read. */
function parseTiers(text: string): { value?: Record<string, string>; problem?: string } {
  const tiers: Record<string, string> = {};
  for (const line of text
    .split('\n')
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const [tier, amount, ...rest] = line.split('=').map((part) => part.trim());
    const micros = amount === undefined ? undefined : unitsToMicros(amount);
    if (rest.length > 0 || !tier || micros === undefined)
      return { problem: `Cannot read "${line}": use tier=units, like 1080p=0.1.` };
    tiers[tier] = micros;
  }
  return { value: Object.keys(tiers).length > 0 ? tiers : undefined };
}

function PriceForm({ price, onDone }: { price?: Price; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [model, setModel] = useState(price?.model ?? '');
  const [input, setInput] = useState(units(price?.inputPerMillion));
  const [output, setOutput] = useState(units(price?.outputPerMillion));
  const [perCall, setPerCall] = useState(units(price?.perCall));
  const [perImage, setPerImage] = useState(tiersText(price?.perImage));
  const [perVideoSecond, setPerVideoSecond] = useState(tiersText(price?.perVideoSecond));
  const [defaultMax, setDefaultMax] = useState(price?.defaultMaxOutputTokens?.toString() ?? '');
  const [problems, setProblems] = useState<Problems>({});
  const save = useMutation({
    mutationFn: (next: Price) => pricesApi.put([next]),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['prices'] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Problems = { model: requiredName(model, 'Model') ?? '' };
    const next: Price = { model: model.trim() };
    for (const [field, text, target] of [
      ['input', input, 'inputPerMillion'],
      ['output', output, 'outputPerMillion'],
      ['perCall', perCall, 'perCall'],
    ] as const) {
      if (text.trim() === '') continue;
      const micros = unitsToMicros(text);
      if (micros === undefined) found[field] = 'An amount in units with at most 6 decimals.';
      else next[target] = micros;
    }
    const images = parseTiers(perImage);
    const seconds = parseTiers(perVideoSecond);
    if (images.problem) found['perImage'] = images.problem;
    if (seconds.problem) found['perVideoSecond'] = seconds.problem;
    if (images.value) next.perImage = images.value;
    if (seconds.value) next.perVideoSecond = seconds.value;
    const maxTokens = optionalInteger(defaultMax, 'Default max output tokens', { min: 1 });
    if (maxTokens.problem) found['defaultMax'] = maxTokens.problem;
    if (maxTokens.value !== undefined) next.defaultMaxOutputTokens = maxTokens.value;
    if (price?.maxReasoningTokens !== undefined) next.maxReasoningTokens = price.maxReasoningTokens;
    setProblems(found);
    if (!hasProblems(found)) save.mutate(next);
  };
  const shown = (field: string) => problems[field] || undefined;
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Price">
      <p className="muted small">
        Setting a price replaces that model&apos;s whole price. Amounts are in units (1 unit = 1,000,000
        micros).
      </p>
      <div className="form__grid">
        <TextField label="Model" name="model" value={model} onChange={setModel} problem={shown('model')} />
        <TextField
          label="Input per million tokens"
          name="inputPerMillion"
          value={input}
          onChange={setInput}
          problem={shown('input')}
        />
        <TextField
          label="Output per million tokens"
          name="outputPerMillion"
          value={output}
          onChange={setOutput}
          problem={shown('output')}
        />
        <TextField
          label="Per call"
          name="perCall"
          value={perCall}
          onChange={setPerCall}
          problem={shown('perCall')}
        />
        <TextField
          label="Default max output tokens"
          name="defaultMaxOutputTokens"
          type="number"
          value={defaultMax}
          onChange={setDefaultMax}
          problem={shown('defaultMax')}
        />
      </div>
      <TextAreaField
        label="Per image, by tier"
        name="perImage"
        value={perImage}
        onChange={setPerImage}
        problem={shown('perImage')}
        rows={3}
        hint="One tier=units per line, like 1024x1024=0.04 or default=0.04."
      />
      <TextAreaField
        label="Per video second, by resolution"
        name="perVideoSecond"
        value={perVideoSecond}
        onChange={setPerVideoSecond}
        problem={shown('perVideoSecond')}
        rows={3}
        hint="One tier=units per line, like 1080p=0.1."
      />
      <FormActions error={save.error} submitLabel="Save price" busy={save.isPending} onCancel={onDone} />
    </form>
  );
}

export function PricesPage() {
  const prices = useQuery({ queryKey: ['prices'], queryFn: pricesApi.list });
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<Price | 'new' | undefined>();
  const [saved, setSaved] = useState(false);
  const matching = (prices.data?.prices ?? []).filter((price) =>
    price.model.toLowerCase().includes(filter.trim().toLowerCase()),
  );
  const pages = useClientPages(matching);
  return (
    <>
      <PageHeader
        title="Prices"
        intro="What each model costs: per token, per call, per image tier, per video second. Prices are data, not code."
        actions={
          <button type="button" className="button button--primary" onClick={() => setEditing('new')}>
            New price
          </button>
        }
      />
      {saved && <Notice>Price saved.</Notice>}
      {editing !== undefined && (
        <Panel title={editing === 'new' ? 'New price' : `Price of ${editing.model}`} id="price-form">
          <PriceForm
            key={editing === 'new' ? 'new' : editing.model}
            price={editing === 'new' ? undefined : editing}
            onDone={() => {
              setSaved(true);
              setEditing(undefined);
            }}
          />
        </Panel>
      )}
      <ListPage
        label="Prices"
        caption="Prices, in units"
        filters={
          <Toolbar>
            <TextField label="Filter by model" type="search" value={filter} onChange={setFilter} />
          </Toolbar>
        }
        error={prices.error}
        rows={prices.data ? pages.visible : undefined}
        emptyText="No price matches."
        columns={
          <>
            <th scope="col">Model</th>
            <th scope="col" className="num">
              Input / M
            </th>
            <th scope="col" className="num">
              Output / M
            </th>
            <th scope="col" className="num">
              Per call
            </th>
            <th scope="col">Per image</th>
            <th scope="col">Per video second</th>
            <th scope="col">Actions</th>
          </>
        }
        renderRow={(price) => (
          <tr key={price.model}>
            <td>{price.model}</td>
            <td className="num">{units(price.inputPerMillion)}</td>
            <td className="num">{units(price.outputPerMillion)}</td>
            <td className="num">{units(price.perCall)}</td>
            <td className="small">{tiersText(price.perImage).replaceAll('\n', ', ')}</td>
            <td className="small">{tiersText(price.perVideoSecond).replaceAll('\n', ', ')}</td>
            <td>
              <button
                type="button"
                className="button"
                aria-label={`Edit the price of ${price.model}`}
                onClick={() => {
                  setSaved(false);
                  setEditing(price);
                }}
              >
                Edit
              </button>
            </td>
          </tr>
        )}
        paging={clientPaging(pages)}
      />
    </>
  );
}
