import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { developerEndpoints as e } from '@numa/contract/developer';
import { call } from '../../../lib/api';
import { queryClient } from '../../../lib/query';
import { queryKeys } from '../../../lib/queryKeys';

/** The Developer panel's calls (issue 21): the contract's subpath, fetched with the panel's chunk only. */
export const useApiKeys = () =>
  useQuery({ queryKey: queryKeys.developer.keys(), queryFn: () => call(e.getApiKeys, {}) });

export const useWebhookEndpoints = () =>
  useQuery({ queryKey: queryKeys.developer.endpoints(), queryFn: () => call(e.getWebhookEndpoints, {}) });

export const useDeliveries = (endpointId: string, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.developer.deliveries(endpointId),
    queryFn: () => call(e.getWebhookDeliveries, { id: endpointId }),
    enabled,
    // while a delivery is still on its way the log follows it, so that "Sending" turns into what
    // happened without the user reloading
    refetchInterval: (q) =>
      q.state.data?.deliveries.some((d) => d.status === 'pending') ? deliveryPollMs : false,
  });

const deliveryPollMs = 2000;

const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.developer.all });

export async function createApiKey(input: z.input<typeof e.createApiKey.input>) {
  const res = await call(e.createApiKey, input, { silent: true });
  await refresh();
  return res;
}

export async function revokeApiKey(id: string) {
  await call(e.revokeApiKey, { id });
  await refresh();
}

export async function createWebhook(input: z.input<typeof e.createWebhookEndpoint.input>) {
  const res = await call(e.createWebhookEndpoint, input, { silent: true });
  await refresh();
  return res;
}

export async function updateWebhook(input: z.input<typeof e.updateWebhookEndpoint.input>) {
  const res = await call(e.updateWebhookEndpoint, input);
  await refresh();
  return res;
}

export async function deleteWebhook(id: string) {
  await call(e.deleteWebhookEndpoint, { id });
  await refresh();
}

export async function sendTestWebhook(id: string) {
  const res = await call(e.sendTestWebhook, { id });
  await refresh();
  return res;
}
