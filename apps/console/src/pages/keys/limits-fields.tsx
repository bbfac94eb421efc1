import { BUDGET_PERIODS, type BudgetPeriod } from '../../api/admin.types';
import type { Problems } from '../../forms/validation.util';
import { SelectField, TextField } from '../../ui/field';
import { LIMIT_FIELDS, type LimitsText } from './limits.util';

/** The governance fields of a key or an account: limits per minute and in flight, and a spending budget. */
export function LimitsFields({
  value,
  onChange,
  problems,
}: {
  value: LimitsText;
  onChange: (value: LimitsText) => void;
  problems: Problems;
}) {
  return (
    <fieldset className="fieldset">
      <legend>Limits and budget (optional)</legend>
      <div className="form__grid">
        {LIMIT_FIELDS.map(([field, label]) => (
          <TextField
            key={field}
            label={label}
            name={field}
            type="number"
            value={value[field]}
            onChange={(next) => onChange({ ...value, [field]: next })}
            problem={problems[field] || undefined}
          />
        ))}
        <TextField
          label="Budget (units)"
          name="budgetUnits"
          value={value.budgetUnits}
          onChange={(next) => onChange({ ...value, budgetUnits: next })}
          problem={problems['budgetUnits'] || undefined}
          hint="Most it may spend per period, holds included."
        />
        <SelectField
          label="Budget period"
          name="budgetPeriod"
          value={value.budgetPeriod}
          onChange={(next) => onChange({ ...value, budgetPeriod: next as BudgetPeriod })}
          options={BUDGET_PERIODS}
        />
      </div>
    </fieldset>
  );
}
