import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlansPage } from '../../../src/features/admin/plans/PlansPage';
import { renderAdmin } from './render-admin';

afterEach(() => vi.unstubAllGlobals());

const GB = 1024 ** 3;
const pro = {
  id: 7,
  name: 'Pro',
  description: 'For people',
  feature_list: ['100 GB'],
  available_space: 100 * GB,
  trash_days: 60,
  position: 1,
  hidden: false,
  recommended: true,
  free: false,
  gateway_id: null,
  subscribers: 1,
  prices: [{ id: 70, product_id: 7, amount: 999, currency: 'USD', interval: 'month', interval_count: 1, gateway_id: null, subscribers: 1 }],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

async function openNewPlan(respond: (body: Record<string, unknown>) => Response) {
  const rendered = renderAdmin(<PlansPage />, ({ method, path, body }) => {
    if (method === 'GET' && path === '/api/v1/admin/plans') return Response.json({ plans: [pro] });
    if (method === 'POST' && path === '/api/v1/admin/plans') return respond(body as Record<string, unknown>);
    return undefined;
  });
  await screen.findByText('Pro');
  fireEvent.click(screen.getByRole('button', { name: 'Add plan' }));
  return { ...rendered, dialog: await screen.findByRole('dialog') };
}

describe('the plan editor', () => {
  it('sends a new plan with its features, space in bytes and prices in minor units', async () => {
    const { dialog, sent } = await openNewPlan((body) => Response.json({ plan: { ...pro, ...body, id: 8, prices: [] } }));
    const d = within(dialog);
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'Team' } });
    fireEvent.click(d.getByRole('button', { name: 'Add feature' }));
    fireEvent.click(d.getByRole('button', { name: 'Add feature' }));
    fireEvent.change(d.getByLabelText('Feature 1'), { target: { value: '500 GB' } });
    // A blank feature line is dropped, not sent.
    fireEvent.change(d.getByLabelText('Storage space (GB)'), { target: { value: '1.5' } });
    fireEvent.change(d.getByLabelText('Trash kept for (days)'), { target: { value: '14' } });
    fireEvent.change(d.getByLabelText('Amount'), { target: { value: '14.99' } });
    fireEvent.change(d.getByLabelText('Currency'), { target: { value: 'eur' } });
    fireEvent.change(d.getByLabelText('Interval'), { target: { value: 'year' } });
    fireEvent.click(d.getByRole('button', { name: 'Add price' }));
    expect(d.getByText(/14\.99/)).toBeTruthy();
    fireEvent.click(d.getByLabelText('Recommended'));
    fireEvent.click(d.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('POST', '/api/v1/admin/plans')).toHaveLength(1));
    expect(sent('POST', '/api/v1/admin/plans')[0]!.body).toEqual({
      name: 'Team',
      description: null,
      feature_list: ['500 GB'],
      available_space: Math.round(1.5 * GB),
      trash_days: 14,
      hidden: false,
      recommended: true,
      free: false,
      prices: [{ amount: 1499, currency: 'EUR', interval: 'year', interval_count: 1 }],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server’s errors on the price and keeps what was typed', async () => {
    const { dialog } = await openNewPlan(() =>
      Response.json(
        { message: 'The amount field must be at least 1.', errors: { 'prices.0.amount': ['The amount field must be at least 1.'] } },
        { status: 422 },
      ),
    );
    const d = within(dialog);
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'Team' } });
    fireEvent.change(d.getByLabelText('Amount'), { target: { value: '0' } });
    fireEvent.click(d.getByRole('button', { name: 'Add price' }));
    fireEvent.click(d.getByRole('button', { name: 'Save' }));
    expect(await d.findByText('The amount field must be at least 1.')).toBeTruthy();
    expect((d.getByLabelText('Name') as HTMLInputElement).value).toBe('Team');
  });

  it('refuses a space that is not a number before sending anything (it would read as unlimited)', async () => {
    const { dialog, sent } = await openNewPlan(() => Response.json({}));
    const d = within(dialog);
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'Team' } });
    fireEvent.change(d.getByLabelText('Storage space (GB)'), { target: { value: 'lots' } });
    fireEvent.click(d.getByRole('button', { name: 'Save' }));
    expect(await d.findByText('Type a number of GB, or leave it empty for unlimited.')).toBeTruthy();
    expect(sent('POST', '/api/v1/admin/plans')).toHaveLength(0);
  });

  it("sends an empty trash time as none (the site's setting) and refuses a part of a day before sending", async () => {
    const { dialog, sent } = await openNewPlan((body) => Response.json({ plan: { ...pro, ...body, id: 9, prices: [] } }));
    const d = within(dialog);
    fireEvent.change(d.getByLabelText('Name'), { target: { value: 'Team' } });
    fireEvent.change(d.getByLabelText('Trash kept for (days)'), { target: { value: '2.5' } });
    fireEvent.click(d.getByRole('button', { name: 'Save' }));
    expect(await d.findByText('Type a whole number of days, or leave it empty for the site setting.')).toBeTruthy();
    expect(sent('POST', '/api/v1/admin/plans')).toHaveLength(0);
    fireEvent.change(d.getByLabelText('Trash kept for (days)'), { target: { value: '' } });
    fireEvent.click(d.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent('POST', '/api/v1/admin/plans')).toHaveLength(1));
    expect(sent('POST', '/api/v1/admin/plans')[0]!.body).toMatchObject({ trash_days: null });
  });

  it('hides a plan from the table in one click, keeping its other fields', async () => {
    const { sent } = renderAdmin(<PlansPage />, ({ method, path, body }) => {
      if (method === 'GET' && path === '/api/v1/admin/plans') return Response.json({ plans: [pro] });
      if (method === 'PUT' && path === '/api/v1/admin/plans/7') return Response.json({ plan: { ...pro, ...(body as object) } });
      return undefined;
    });
    const row = (await screen.findByText('Pro')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Hide' }));
    await waitFor(() => expect(sent('PUT', '/api/v1/admin/plans/7')).toHaveLength(1));
    expect(sent('PUT', '/api/v1/admin/plans/7')[0]!.body).toEqual({
      name: 'Pro',
      description: 'For people',
      feature_list: ['100 GB'],
      available_space: 100 * GB,
      // A PUT sets every field: the plan's trash time travels too, or hiding would reset it.
      trash_days: 60,
      hidden: true,
      recommended: true,
      free: false,
    });
  });
});
