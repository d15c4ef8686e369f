import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import type { JsonResponse } from '../../api/api-types';
import { driveKeys } from '../drive/api/keys';

// Plans, checkout and the user's subscription (ours, next to spec §7 billing/products).
export const billingKeys = {
  products: ['billing', 'products'] as const,
  subscription: ['billing', 'subscription'] as const,
  invoices: ['billing', 'invoices'] as const,
};

export type SubscriptionState = JsonResponse<'/api/v1/billing/subscription', 'get'>;
export type Invoice = JsonResponse<'/api/v1/billing/invoices', 'get'>['data'][number];

export const billingCalls = {
  products: (signal?: AbortSignal) => api.get('billing/products', { signal }),
  checkout: (productId: number, priceId: number) => api.post('billing/checkout', { product_id: productId, price_id: priceId }),
  subscription: (signal?: AbortSignal) => api.get('billing/subscription', { signal }),
  changePlan: (productId: number, priceId: number) => api.post('billing/subscription/change-plan', { product_id: productId, price_id: priceId }),
  cancel: () => api.post('billing/subscription/cancel', {}),
  resume: () => api.post('billing/subscription/resume', {}),
  invoices: (signal?: AbortSignal) => api.get('billing/invoices', { signal }),
  portal: () => api.post('billing/portal', {}),
};

/** GET billing/products: the plans (guests too). */
export function useProducts() {
  return useQuery({
    queryKey: billingKeys.products,
    queryFn: async ({ signal }) => (await billingCalls.products(signal)).pagination.data,
  });
}

/**
 * The user's subscription. Changes arrive from Stripe's webhook a moment
 * after a call, so while `pollUntil` says the wanted state is not there yet
 * the query asks again every second.
 */
export function useSubscription(pollUntil?: (state: SubscriptionState) => boolean) {
  return useQuery({
    queryKey: billingKeys.subscription,
    queryFn: ({ signal }) => billingCalls.subscription(signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (pollUntil && query.state.data && !pollUntil(query.state.data) && query.state.dataUpdateCount < 60 ? 1000 : false),
  });
}

export function useInvoices() {
  return useQuery({ queryKey: billingKeys.invoices, queryFn: ({ signal }) => billingCalls.invoices(signal) });
}

/** After a subscription changed: the plan, the space, the bootstrap's subscriptions and the invoices. */
export function useRefreshBilling() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: billingKeys.subscription }),
      client.invalidateQueries({ queryKey: billingKeys.invoices }),
      client.invalidateQueries({ queryKey: driveKeys.usage }),
      client.invalidateQueries({ queryKey: queryKeys.bootstrap }),
    ]);
}

/** Goes to a Stripe page (Checkout, Billing Portal) the server made for us. */
export function leaveFor(url: string): void {
  window.location.assign(url);
}

export function useCheckout() {
  return useMutation({
    mutationFn: ({ productId, priceId }: { productId: number; priceId: number }) => billingCalls.checkout(productId, priceId),
    onSuccess: ({ url }) => leaveFor(url),
  });
}

export function usePortal() {
  return useMutation({ mutationFn: () => billingCalls.portal(), onSuccess: ({ url }) => leaveFor(url) });
}

export function useChangePlan() {
  return useMutation({ mutationFn: ({ productId, priceId }: { productId: number; priceId: number }) => billingCalls.changePlan(productId, priceId) });
}

export function useCancelSubscription() {
  return useMutation({ mutationFn: () => billingCalls.cancel() });
}

export function useResumeSubscription() {
  return useMutation({ mutationFn: () => billingCalls.resume() });
}
