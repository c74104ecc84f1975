import type { AdminSettings, AdminSettingsPatch } from '@footprint/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api.ts';
import { caseReferencePolicyKey } from '../../../lib/case-reference.ts';

const settingsKey = ['admin', 'settings'] as const;

/**
 * GET /api/admin/settings → { registration_enabled, registration_mode, case_reference_required,
 * lookup_retention_days }.
 */
export function getSettings(signal?: AbortSignal): Promise<AdminSettings> {
  return api.get<AdminSettings>('/api/admin/settings', { signal });
}

/** PATCH /api/admin/settings with the fields to change → the settings after the change. */
export function updateSettings(patch: AdminSettingsPatch): Promise<AdminSettings> {
  return request<AdminSettings>('/api/admin/settings', { method: 'PATCH', body: patch });
}

export function useSettings() {
  return useQuery({ queryKey: settingsKey, queryFn: ({ signal }) => getSettings(signal) });
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKey, settings);
      // The admin's own search forms read the case reference policy too.
      void queryClient.invalidateQueries({ queryKey: caseReferencePolicyKey });
    },
  });
}
