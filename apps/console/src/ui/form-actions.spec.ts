import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AdminApiError } from '../api/admin-api.error';
import { FormActions } from './form-actions';

type Props = Parameters<typeof FormActions>[0];
const render = (props: Props) => renderToStaticMarkup(createElement(FormActions, props));
const refusal = new AdminApiError(409, 'A channel named e2e-kappa exists.', 'conflict', 'name');

describe('FormActions', () => {
  it('shows the refusal, then submit and Cancel, in that order', () => {
    const markup = render({ error: refusal, submitLabel: 'Create channel', busy: false, onCancel: () => {} });

    expect(markup).toBe(
      '<div class="banner banner--error" role="alert"><strong>The gateway refused:</strong> ' +
        'A channel named e2e-kappa exists.<div class="banner__detail">HTTP 409 · conflict · field: name</div></div>' +
        '<div class="form__actions">' +
        '<button type="submit" class="button button--primary">Create channel</button>' +
        '<button type="button" class="button">Cancel</button>' +
        '</div>',
    );
  });

  it('shows no banner before a refusal, and no Cancel for a form that does not close', () => {
    const markup = render({ error: null, submitLabel: 'Credit', busy: false });

    expect(markup).toBe(
      '<div class="form__actions"><button type="submit" class="button button--primary">Credit</button></div>',
    );
  });

  it('disables the submit button while the submission is in flight, so it is not sent twice', () => {
    expect(render({ error: undefined, submitLabel: 'Save price', busy: true, onCancel: () => {} })).toContain(
      '<button type="submit" class="button button--primary" disabled="">Save price</button>',
    );
  });

  it('draws a destructive submission as one, under the title given for a failure that is not a refusal', () => {
    const markup = render({
      error: new Error('Failed to fetch'),
      errorTitle: 'Sign-in failed',
      submitLabel: 'Cancel task',
      busy: false,
      tone: 'danger',
    });

    expect(markup).toContain('<strong>Sign-in failed:</strong> Failed to fetch</div>');
    expect(markup).toContain('<button type="submit" class="button button--danger">Cancel task</button>');
  });
});
